//! Tokens of a kernel body: identifiers, numbers, punctuation, each with its line.
use super::SourceError;

/// A token of kernel source.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Tok {
    Ident(String),
    /// an integer literal: value, unsigned suffix, long suffix
    Int(u64, bool, bool),
    /// a floating literal: value, `f` suffix
    Float(f64, bool),
    Punct(&'static str),
}

/// A token and the line (1-based) it starts on.
#[derive(Clone, Debug)]
pub(crate) struct Token {
    pub(crate) tok: Tok,
    pub(crate) line: usize,
}

const PUNCT: [&str; 44] = [
    "<<=", ">>=", "...", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "+=", "-=", "*=", "/=",
    "%=", "&=", "|=", "^=", "::", "+", "-", "*", "/", "%", "<", ">", "=", "!", "~", "&", "|", "^", "?", ":", ";", ",",
    "(", ")", "{", "}",
];
const BRACKETS: [&str; 3] = ["[", "]", "."];

/// Split `src` into tokens; comments and preprocessor lines are skipped.
pub(crate) fn lex(src: &str) -> Result<Vec<Token>, SourceError> {
    let b = src.as_bytes();
    let (mut i, mut line, mut out) = (0, 1, Vec::new());
    let mut line_start = true;
    while i < b.len() {
        let c = b[i];
        if c == b'\n' {
            line += 1;
            line_start = true;
            i += 1;
            continue;
        }
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if c == b'#' && line_start {
            return Err(SourceError::outside(line, "preprocessor directives (#...) are not in the CPU subset"));
        }
        line_start = false;
        if src[i..].starts_with("//") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        if src[i..].starts_with("/*") {
            let end = src[i + 2..].find("*/").ok_or_else(|| SourceError::syntax(line, "unterminated comment"))?;
            line += src[i..i + 2 + end].matches('\n').count();
            i += end + 4;
            continue;
        }
        if c.is_ascii_alphabetic() || c == b'_' {
            let s = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            out.push(Token { tok: Tok::Ident(src[s..i].to_string()), line });
            continue;
        }
        if c.is_ascii_digit() || (c == b'.' && b.get(i + 1).is_some_and(|d| d.is_ascii_digit())) {
            let (tok, len) = number(&src[i..]).ok_or_else(|| SourceError::syntax(line, "malformed number"))?;
            out.push(Token { tok, line });
            i += len;
            continue;
        }
        if let Some(p) = PUNCT.iter().chain(BRACKETS.iter()).find(|p| src[i..].starts_with(**p)) {
            out.push(Token { tok: Tok::Punct(p), line });
            i += p.len();
            continue;
        }
        return Err(SourceError::syntax(
            line,
            format!("unexpected character `{}`", src[i..].chars().next().unwrap_or('?')),
        ));
    }
    Ok(out)
}

/// A numeric literal at the start of `s` and its length in bytes.
fn number(s: &str) -> Option<(Tok, usize)> {
    let b = s.as_bytes();
    if s.starts_with("0x") || s.starts_with("0X") {
        let e = 2 + s[2..].bytes().take_while(|c| c.is_ascii_hexdigit()).count();
        let v = u64::from_str_radix(&s[2..e], 16).ok()?;
        let (u, l, n) = int_suffix(&s[e..]);
        return Some((Tok::Int(v, u, l), e + n));
    }
    let mut e = b.iter().take_while(|c| c.is_ascii_digit()).count();
    let mut float = false;
    if b.get(e) == Some(&b'.') {
        float = true;
        e += 1;
        e += b[e..].iter().take_while(|c| c.is_ascii_digit()).count();
    }
    if matches!(b.get(e), Some(b'e' | b'E')) {
        let mut k = e + 1;
        if matches!(b.get(k), Some(b'+' | b'-')) {
            k += 1;
        }
        let d = b[k..].iter().take_while(|c| c.is_ascii_digit()).count();
        if d == 0 {
            return None;
        }
        float = true;
        e = k + d;
    }
    if float {
        let v: f64 = s[..e].parse().ok()?;
        let f = matches!(b.get(e), Some(b'f' | b'F'));
        return Some((Tok::Float(v, f), e + f as usize));
    }
    let v: u64 = s[..e].parse().ok()?;
    let (u, l, n) = int_suffix(&s[e..]);
    Some((Tok::Int(v, u, l), e + n))
}

fn int_suffix(s: &str) -> (bool, bool, usize) {
    let n = s.bytes().take_while(|c| matches!(c, b'u' | b'U' | b'l' | b'L')).count();
    let suf = &s[..n];
    (suf.contains(['u', 'U']), suf.contains(['l', 'L']), n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_lines() {
        let t = lex("a = 1.5f + 2e3;\n// c\nb = 0x10u >> 3UL; /* x\n y */ c").unwrap();
        let toks: Vec<&Tok> = t.iter().map(|t| &t.tok).collect();
        assert_eq!(toks[2], &Tok::Float(1.5, true));
        assert_eq!(toks[4], &Tok::Float(2000.0, false));
        assert_eq!(toks[8], &Tok::Int(16, true, false));
        assert_eq!(toks[10], &Tok::Int(3, true, true));
        assert_eq!(t.last().unwrap().line, 4);
        assert!(lex("a = 1 @ 2").is_err());
    }
}
