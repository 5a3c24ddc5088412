//! A JSON document with the byte range of every value and key, so that errors found
//! after parsing can point at the offending place. It is only built from text that
//! serde_json has already accepted; scalars are decoded with serde_json.

/// A value and where it is: bytes `start..end` of the text.
#[derive(Debug)]
pub(crate) struct Node<'a> {
    pub start: usize,
    pub end: usize,
    pub kind: Kind<'a>,
}

#[derive(Debug)]
pub(crate) enum Kind<'a> {
    Object(Vec<Member<'a>>),
    Array(Vec<Node<'a>>),
    /// A string, number, `true`, `false` or `null`: its raw text.
    Scalar(&'a str),
}

#[derive(Debug)]
pub(crate) struct Member<'a> {
    pub key: String,
    pub key_start: usize,
    pub key_end: usize,
    pub value: Node<'a>,
}

impl<'a> Node<'a> {
    /// The string value, if this is a JSON string.
    pub fn as_str(&self) -> Option<String> {
        match self.kind {
            Kind::Scalar(raw) if raw.starts_with('"') => serde_json::from_str(raw).ok(),
            _ => None,
        }
    }

    /// The integer value, if this is a JSON integer that fits an `i64`.
    pub fn as_int(&self) -> Option<i64> {
        match self.kind {
            Kind::Scalar(raw) if !raw.starts_with('"') => serde_json::from_str(raw).ok(),
            _ => None,
        }
    }

    /// A short name of the JSON type, for messages.
    pub fn type_name(&self) -> &'static str {
        match &self.kind {
            Kind::Object(_) => "an object",
            Kind::Array(_) => "a list",
            Kind::Scalar(raw) if raw.starts_with('"') => "a string",
            Kind::Scalar(raw) if matches!(*raw, "true" | "false") => "a boolean",
            Kind::Scalar("null") => "null",
            Kind::Scalar(_) => "a number",
        }
    }
}

/// Builds the tree of `text`, which serde_json accepted; `None` if it is not JSON
/// after all (never expected).
pub(crate) fn scan(text: &str) -> Option<Node<'_>> {
    let mut s = Scanner { text, i: 0 };
    let node = s.value(0)?;
    s.ws();
    (s.i == text.len()).then_some(node)
}

struct Scanner<'a> {
    text: &'a str,
    i: usize,
}

/// Deeper than this is refused (serde_json refuses at 128 already).
const MAX_DEPTH: usize = 200;

impl<'a> Scanner<'a> {
    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.i).copied()
    }

    fn ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.i += 1;
        }
    }

    fn eat(&mut self, b: u8) -> Option<()> {
        self.ws();
        (self.peek() == Some(b)).then(|| self.i += 1)
    }

    fn value(&mut self, depth: usize) -> Option<Node<'a>> {
        if depth > MAX_DEPTH {
            return None;
        }
        self.ws();
        let start = self.i;
        let kind = match self.peek()? {
            b'{' => Kind::Object(self.object(depth)?),
            b'[' => Kind::Array(self.array(depth)?),
            b'"' => Kind::Scalar(self.string()?),
            _ => {
                let rest = &self.text.as_bytes()[start..];
                let len = rest
                    .iter()
                    .position(|b| matches!(b, b',' | b']' | b'}' | b' ' | b'\t' | b'\n' | b'\r'))
                    .unwrap_or(rest.len());
                self.i += len;
                Kind::Scalar(self.text.get(start..self.i)?)
            }
        };
        Some(Node {
            start,
            end: self.i,
            kind,
        })
    }

    /// A string's raw text, quotes included.
    fn string(&mut self) -> Option<&'a str> {
        let start = self.i;
        self.i += 1;
        loop {
            match self.peek()? {
                b'\\' => self.i += 2,
                b'"' => break,
                _ => self.i += 1,
            }
        }
        self.i += 1;
        self.text.get(start..self.i)
    }

    fn object(&mut self, depth: usize) -> Option<Vec<Member<'a>>> {
        self.i += 1;
        let mut out = Vec::new();
        if self.eat(b'}').is_some() {
            return Some(out);
        }
        loop {
            self.ws();
            let key_start = self.i;
            let key = serde_json::from_str(self.string()?).ok()?;
            let key_end = self.i;
            self.eat(b':')?;
            let value = self.value(depth + 1)?;
            out.push(Member {
                key,
                key_start,
                key_end,
                value,
            });
            if self.eat(b',').is_none() {
                self.eat(b'}')?;
                return Some(out);
            }
        }
    }

    fn array(&mut self, depth: usize) -> Option<Vec<Node<'a>>> {
        self.i += 1;
        let mut out = Vec::new();
        if self.eat(b']').is_some() {
            return Some(out);
        }
        loop {
            out.push(self.value(depth + 1)?);
            if self.eat(b',').is_none() {
                self.eat(b']')?;
                return Some(out);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_of_values_and_keys() {
        let text = "{ \"a\": [1, {\"b\\\"\": \"x\"}],\n \"c\": -2 }";
        let root = scan(text).unwrap();
        let Kind::Object(m) = &root.kind else {
            panic!()
        };
        assert_eq!(m[0].key, "a");
        assert_eq!(&text[m[0].key_start..m[0].key_end], "\"a\"");
        let Kind::Array(items) = &m[0].value.kind else {
            panic!()
        };
        assert_eq!(items[0].as_int(), Some(1));
        let Kind::Object(inner) = &items[1].kind else {
            panic!()
        };
        assert_eq!(inner[0].key, "b\"");
        assert_eq!(inner[0].value.as_str().as_deref(), Some("x"));
        assert_eq!(m[1].value.as_int(), Some(-2));
        assert_eq!(&text[m[1].value.start..m[1].value.end], "-2");
        assert_eq!(scan("[1] x").map(|_| ()), None);
    }
}
