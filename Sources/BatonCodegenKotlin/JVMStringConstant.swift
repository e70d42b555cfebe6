/// The one rule for generated text that may be too long for one JVM string constant (a plan's text, an operation's
/// document): a class file holds at most 65,535 bytes of modified UTF-8 per constant, counted on the string's value
/// (not its Kotlin literal): one byte for U+0001–U+007F, two for NUL and U+0080–U+07FF, three for the rest of the
/// BMP, six for a character outside it (two surrogates of three bytes each).
enum JVMStringConstant {
    /// The most one piece holds, in modified UTF-8 bytes, under the 65,535 of one constant.
    static let limit = 60_000

    /// The bytes `scalar` takes in modified UTF-8.
    static func weight(_ scalar: Unicode.Scalar) -> Int {
        switch scalar.value {
        case 0: 2
        case 1..<0x80: 1
        case 0x80..<0x800: 2
        case 0x800..<0x10000: 3
        default: 6
        }
    }

    /// The bytes `text` takes in modified UTF-8.
    static func weight(_ text: String) -> Int {
        var total = 0
        for byte in text.utf8 {
            // UTF-8's lead bytes: one to three bytes a scalar as in modified UTF-8, four (outside the BMP) six.
            switch byte {
            case 0: total += 2
            case 0x80..<0xC0: continue
            case 0xF0...: total += 6
            default: total += byte < 0x80 ? 1 : byte < 0xE0 ? 2 : 3
            }
        }
        return total
    }

    /// Whether `text` fits in one piece.
    static func fits(_ text: String) -> Bool { text.utf8.count <= limit / 2 || weight(text) <= limit }

    /// `text` cut into pieces of at most `limit` bytes each, in order: each piece as long as it can be, ending at its
    /// last line end where it holds one, cut between two characters (never inside a surrogate pair; each piece is
    /// escaped as a literal of its own, so never inside an escape) where a line is longer than a piece.
    static func pieces(_ text: String) -> [String] {
        if fits(text) { return [text] }
        var pieces: [String] = []
        var current = String.UnicodeScalarView()
        var currentWeight = 0
        // The end of `current`'s last line, and the weight up to there.
        var lineEnd: String.UnicodeScalarView.Index?
        var lineEndWeight = 0
        for scalar in text.unicodeScalars {
            let scalarWeight = weight(scalar)
            // Twice at most: a line's rest carried over may still leave no room for a six-byte character.
            while currentWeight + scalarWeight > limit {
                if let end = lineEnd {
                    pieces.append(String(current[..<end]))
                    current = String.UnicodeScalarView(current[end...])
                    currentWeight -= lineEndWeight
                } else {
                    pieces.append(String(current))
                    current = String.UnicodeScalarView()
                    currentWeight = 0
                }
                lineEnd = nil
            }
            current.append(scalar)
            currentWeight += scalarWeight
            if scalar == "\n" {
                lineEnd = current.endIndex
                lineEndWeight = currentWeight
            }
        }
        if !current.isEmpty { pieces.append(String(current)) }
        return pieces
    }
}
