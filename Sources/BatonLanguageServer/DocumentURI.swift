/// `file://` URIs and absolute paths, both ways (RFC 3986 percent-encoding of UTF-8 bytes).
package enum DocumentURI {
    /// The absolute path of a `file:` URI, or nil for another scheme or a malformed one.
    package static func path(of uri: String) -> String? {
        guard uri.hasPrefix("file://") else { return nil }
        var rest = Substring(uri.dropFirst("file://".count))
        // `file://host/path`: only an empty host or localhost names this machine.
        if !rest.hasPrefix("/") {
            guard rest.hasPrefix("localhost/") else { return nil }
            rest = rest.dropFirst("localhost".count)
        }
        if let query = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) { rest = rest[..<query] }
        var bytes: [UInt8] = []
        var iterator = Array(rest.utf8)[...]
        while let byte = iterator.popFirst() {
            guard byte == 0x25 else {
                bytes.append(byte)
                continue
            }
            guard iterator.count >= 2, let high = hexValue(iterator[iterator.startIndex]),
                let low = hexValue(iterator[iterator.startIndex + 1])
            else { return nil }
            bytes.append(high << 4 | low)
            iterator = iterator.dropFirst(2)
        }
        guard let path = String(validating: bytes, as: UTF8.self), !path.contains("\0") else { return nil }
        return path
    }

    /// The `file://` URI of an absolute path (VS Code's spelling: unreserved characters and `/` kept, the rest
    /// percent-encoded).
    package static func uri(of path: String) -> String {
        var out = "file://"
        for byte in path.utf8 {
            switch byte {
            case 0x41...0x5A, 0x61...0x7A, 0x30...0x39, 0x2D, 0x2E, 0x5F, 0x7E, 0x2F:
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let digits = Array("0123456789ABCDEF".unicodeScalars)
                out += "%"
                out.unicodeScalars.append(digits[Int(byte >> 4)])
                out.unicodeScalars.append(digits[Int(byte & 0x0F)])
            }
        }
        return out
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }
}
