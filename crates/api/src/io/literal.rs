//! A strict reader of the Python literals a `.npy` header holds (strings, integers, True, False,
//! None, tuples, lists, dicts), with checked integers and bounded nesting, so that no header, however
//! malformed, makes it panic, overflow or recurse without end.
use super::header::Bad;

/// Deeper nesting than any NumPy header of a plain dtype has; bounds the recursion.
const MAX_DEPTH: usize = 16;

/// A Python literal: what a NumPy header can hold.
#[derive(Debug)]
pub(super) enum Value {
    Str(String),
    Int(i128),
    Bool(bool),
    None,
    Tuple(Vec<Value>),
    List(Vec<Value>),
    Dict(Vec<(Value, Value)>),
}

pub(super) struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

impl Parser<'_> {
    /// The one literal that `text` is (whitespace around it allowed).
    pub(super) fn parse(text: &[u8]) -> Result<Value, Bad> {
        let mut p = Parser { s: text, i: 0 };
        let v = p.value(0)?;
        p.ws();
        if p.i != p.s.len() {
            return Err(p.err("text after the value"));
        }
        Ok(v)
    }
    fn ws(&mut self) {
        while self.i < self.s.len() && matches!(self.s[self.i], b' ' | b'\t' | b'\n' | b'\r') {
            self.i += 1;
        }
    }
    fn peek(&mut self) -> Option<u8> {
        self.ws();
        self.s.get(self.i).copied()
    }
    fn err(&self, what: &str) -> Bad {
        let near = String::from_utf8_lossy(&self.s[self.i.min(self.s.len())..]);
        format!(
            "header does not parse: {what} at byte {} (near {:?})",
            self.i,
            near.chars().take(20).collect::<String>()
        )
    }
    fn value(&mut self, depth: usize) -> Result<Value, Bad> {
        if depth > MAX_DEPTH {
            return Err(self.err("nested too deeply"));
        }
        match self.peek() {
            Some(q @ (b'\'' | b'"')) => self.string(q),
            Some(b'(') => {
                let (items, comma) = self.seq(b')', depth)?;
                // `(3)` is the integer 3, `(3,)` a tuple, as in Python.
                Ok(if items.len() == 1 && !comma {
                    items.into_iter().next().expect("one")
                } else {
                    Value::Tuple(items)
                })
            }
            Some(b'[') => Ok(Value::List(self.seq(b']', depth)?.0)),
            Some(b'{') => self.dict(depth),
            Some(b'-' | b'+' | b'0'..=b'9') => self.int(),
            Some(b'A'..=b'Z' | b'a'..=b'z') => {
                let start = self.i;
                while self.i < self.s.len() && self.s[self.i].is_ascii_alphanumeric() {
                    self.i += 1;
                }
                match &self.s[start..self.i] {
                    b"True" => Ok(Value::Bool(true)),
                    b"False" => Ok(Value::Bool(false)),
                    b"None" => Ok(Value::None),
                    _ => {
                        self.i = start;
                        Err(self.err("unknown name"))
                    }
                }
            }
            _ => Err(self.err("expected a value")),
        }
    }
    /// Items up to `close` (the opener is at `self.i`), and whether a comma followed the last.
    fn seq(&mut self, close: u8, depth: usize) -> Result<(Vec<Value>, bool), Bad> {
        self.i += 1;
        let (mut items, mut comma) = (Vec::new(), false);
        loop {
            if self.peek() == Some(close) {
                self.i += 1;
                return Ok((items, comma));
            }
            if !items.is_empty() && !comma {
                return Err(self.err("expected ',' or a closing bracket"));
            }
            items.push(self.value(depth + 1)?);
            comma = self.peek() == Some(b',');
            if comma {
                self.i += 1;
            }
        }
    }
    fn dict(&mut self, depth: usize) -> Result<Value, Bad> {
        self.i += 1;
        let mut items = Vec::new();
        loop {
            if self.peek() == Some(b'}') {
                self.i += 1;
                return Ok(Value::Dict(items));
            }
            let key = self.value(depth + 1)?;
            if self.peek() != Some(b':') {
                return Err(self.err("expected ':'"));
            }
            self.i += 1;
            items.push((key, self.value(depth + 1)?));
            match self.peek() {
                Some(b',') => self.i += 1,
                Some(b'}') => {}
                _ => return Err(self.err("expected ',' or '}'")),
            }
        }
    }
    fn string(&mut self, quote: u8) -> Result<Value, Bad> {
        let start = self.i;
        self.i += 1;
        let mut out = Vec::new();
        while let Some(&c) = self.s.get(self.i) {
            self.i += 1;
            match c {
                _ if c == quote => return Ok(Value::Str(String::from_utf8_lossy(&out).into_owned())),
                b'\\' => {
                    let Some(&e) = self.s.get(self.i) else { break };
                    self.i += 1;
                    out.push(match e {
                        b'n' => b'\n',
                        b't' => b'\t',
                        b'r' => b'\r',
                        e => e,
                    });
                }
                b'\n' => break,
                c => out.push(c),
            }
        }
        self.i = start;
        Err(self.err("unterminated string"))
    }
    fn int(&mut self) -> Result<Value, Bad> {
        let start = self.i;
        let neg = self.s[self.i] == b'-';
        if matches!(self.s[self.i], b'-' | b'+') {
            self.i += 1;
        }
        let digits = self.i;
        let mut n: i128 = 0;
        while let Some(&c @ b'0'..=b'9') = self.s.get(self.i) {
            n = n
                .checked_mul(10)
                .and_then(|n| n.checked_add((c - b'0') as i128))
                .ok_or_else(|| self.err("integer too large"))?;
            self.i += 1;
        }
        if self.i == digits {
            self.i = start;
            return Err(self.err("expected digits"));
        }
        // Python 2's long suffix (`3L`), which NumPy still reads in version 1.0 and 2.0 headers.
        if matches!(self.s.get(self.i), Some(b'L')) {
            self.i += 1;
        }
        Ok(Value::Int(if neg { -n } else { n }))
    }
}
