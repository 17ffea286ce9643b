//! Tokens of a kernel body: identifiers, numbers, punctuation, each with its line.
use super::SourceError;

/// A token of kernel source.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Tok {
    Ident(String),
    /// an integer literal: value, unsigned suffix, long suffix, decimal (C gives decimal and
    /// hexadecimal/octal literals different types when they do not fit `int`)
    Int(u64, bool, bool, bool),
    /// a floating literal: value, `f` suffix
    Float(f64, bool),
    Punct(&'static str),
    /// a string or character literal (outside the CPU subset; lexed so that a preamble's
    /// `extern "C"` can be skipped)
    Str(String),
}

/// A preprocessor line of a preamble: its line and text (after the `#`).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Directive {
    pub(crate) line: usize,
    pub(crate) text: String,
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

/// Split `src` into tokens; comments are skipped, a preprocessor line is outside the subset.
pub(crate) fn lex(src: &str) -> Result<Vec<Token>, SourceError> {
    lex_any(src, None)
}

/// Split a preamble into tokens and its preprocessor lines.
pub(crate) fn lex_with_directives(src: &str) -> Result<(Vec<Token>, Vec<Directive>), SourceError> {
    let mut d = Vec::new();
    let t = lex_any(src, Some(&mut d))?;
    Ok((t, d))
}

fn lex_any(src: &str, mut directives: Option<&mut Vec<Directive>>) -> Result<Vec<Token>, SourceError> {
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
            let Some(d) = directives.as_deref_mut() else {
                return Err(SourceError::outside(line, "preprocessor directives (#...) are not in the CPU subset"));
            };
            // the directive and its continuation lines
            let (s, l0) = (i + 1, line);
            while i < b.len() && b[i] != b'\n' {
                if b[i] == b'\\' && b.get(i + 1) == Some(&b'\n') {
                    line += 1;
                    i += 1;
                }
                i += 1;
            }
            d.push(Directive { line: l0, text: src[s..i].trim().to_string() });
            continue;
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
        if c == b'"' || c == b'\'' {
            let s = i;
            i += 1;
            while i < b.len() && b[i] != c && b[i] != b'\n' {
                i += 1 + (b[i] == b'\\') as usize;
            }
            if i >= b.len() || b[i] != c {
                return Err(SourceError::syntax(line, "unterminated literal"));
            }
            i += 1;
            out.push(Token { tok: Tok::Str(src[s..i].to_string()), line });
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
    for (prefix, radix) in [("0x", 16), ("0X", 16), ("0b", 2), ("0B", 2)] {
        if let Some(rest) = s.strip_prefix(prefix) {
            let e = 2 + rest.chars().take_while(|c| c.is_digit(radix)).count();
            let v = u64::from_str_radix(&s[2..e], radix).ok()?;
            let (u, l, n) = int_suffix(&s[e..]);
            return Some((Tok::Int(v, u, l, false), e + n));
        }
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
    let (u, l, n) = int_suffix(&s[e..]);
    if e > 1 && b[0] == b'0' {
        // octal
        let v = u64::from_str_radix(&s[1..e], 8).ok()?;
        return Some((Tok::Int(v, u, l, false), e + n));
    }
    let v: u64 = s[..e].parse().ok()?;
    Some((Tok::Int(v, u, l, true), e + n))
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
        assert_eq!(toks[8], &Tok::Int(16, true, false, false));
        assert_eq!(toks[10], &Tok::Int(3, true, true, true));
        assert_eq!(t.last().unwrap().line, 4);
        assert!(lex("a = 1 @ 2").is_err());
        let t = lex("0x5c721fd808f616b6 017 0b101 18446744073709551615").unwrap();
        let toks: Vec<&Tok> = t.iter().map(|t| &t.tok).collect();
        assert_eq!(toks[0], &Tok::Int(0x5c72_1fd8_08f6_16b6, false, false, false));
        assert_eq!(toks[1], &Tok::Int(0o17, false, false, false));
        assert_eq!(toks[2], &Tok::Int(5, false, false, false));
        assert_eq!(toks[3], &Tok::Int(u64::MAX, false, false, true));
    }

    #[test]
    fn directives_and_strings() {
        assert!(lex("#define N 3\ny = N").unwrap_err().outside);
        let (t, d) = lex_with_directives("#define N \\\n 3\nextern \"C\" int f;").unwrap();
        assert_eq!(d, vec![Directive { line: 1, text: "define N \\\n 3".into() }]);
        assert_eq!(t[1].tok, Tok::Str("\"C\"".into()));
        assert_eq!(t[0].line, 3);
    }
}
