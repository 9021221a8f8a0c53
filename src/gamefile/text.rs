//! Text of game files: UTF-8 (a byte-order mark allowed), UTF-16 with its
//! mark, else GBK/GB18030 (what Chinese Windows programs write), decoded
//! with `encoding_rs`.

use encoding_rs::{GB18030, UTF_8, UTF_16BE, UTF_16LE};

/// The encodings a game file's text is read in.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Encoding {
    /// UTF-8, with or without a byte-order mark.
    Utf8,
    /// UTF-16 (little or big endian), told by its byte-order mark.
    Utf16,
    /// GB18030, the superset of GBK and GB2312.
    Gb18030,
}

/// The encoding of `bytes`: a byte-order mark says; else UTF-8 if the
/// bytes are valid UTF-8; else GB18030.
pub fn detect(bytes: &[u8]) -> Encoding {
    if bytes.starts_with(&[0xFF, 0xFE]) || bytes.starts_with(&[0xFE, 0xFF]) {
        Encoding::Utf16
    } else if bytes.starts_with(&[0xEF, 0xBB, 0xBF]) || std::str::from_utf8(bytes).is_ok() {
        Encoding::Utf8
    } else {
        Encoding::Gb18030
    }
}

/// `bytes` as text in their [`detect`]ed encoding (what cannot be decoded
/// becomes U+FFFD).
pub fn decode(bytes: &[u8]) -> String {
    let text = match detect(bytes) {
        Encoding::Utf16 if bytes.starts_with(&[0xFF, 0xFE]) => UTF_16LE.decode_with_bom_removal(bytes).0,
        Encoding::Utf16 => UTF_16BE.decode_with_bom_removal(bytes).0,
        Encoding::Utf8 => UTF_8.decode_with_bom_removal(bytes).0,
        Encoding::Gb18030 => GB18030.decode_without_bom_handling(bytes).0,
    };
    text.into_owned()
}

/// A fixed-size GBK/GB18030 (or UTF-8) string field of a binary file, cut
/// at its first NUL.
pub fn decode_field(bytes: &[u8]) -> String {
    let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
    decode(&bytes[..end]).trim().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_gbk_and_utf16() {
        let zh = "炮二平五 马８进７";
        assert_eq!(decode(zh.as_bytes()), zh);
        let mut bom = vec![0xEF, 0xBB, 0xBF];
        bom.extend_from_slice(zh.as_bytes());
        assert_eq!(decode(&bom), zh);
        let (gbk, _, _) = GB18030.encode(zh);
        assert_eq!(detect(&gbk), Encoding::Gb18030);
        assert_eq!(decode(&gbk), zh);
        let mut utf16 = vec![0xFF, 0xFE];
        for u in zh.encode_utf16() {
            utf16.extend_from_slice(&u.to_le_bytes());
        }
        assert_eq!(decode(&utf16), zh);
        assert_eq!(decode_field(b"abc\0def"), "abc");
    }
}
