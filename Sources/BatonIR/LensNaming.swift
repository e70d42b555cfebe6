/// The naming rules of the lens model, in one place so plates and generators agree.
package enum LensNaming {
    /// The accessor name of a fragment's spreads: the part of the fragment's name before the first
    /// `_`, lower-camel-cased (`IssueRow_issue` → `issueRow`); a name without `_` is lower-camel-cased
    /// whole (`RepoFields` → `repoFields`). Leading underscores are skipped (`_Row_x` → `row`); a
    /// name made only of underscores keeps them.
    package static func spreadAccessorName(fragment name: String) -> String {
        if let ascii = asciiSpreadAccessorName(name) { return ascii }
        let parts = name.split(separator: "_", omittingEmptySubsequences: true)
        guard let first = parts.first else { return name }
        return lowerCamel(String(first))
    }

    /// `spreadAccessorName` of an ASCII name (every GraphQL name is), read off its bytes without
    /// splitting it; nil for any other name.
    private static func asciiSpreadAccessorName(_ name: String) -> String? {
        name.utf8.withContiguousStorageIfAvailable { bytes -> String? in
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
            let underscore = UInt8(ascii: "_")
            guard let start = bytes.firstIndex(where: { $0 != underscore }) else { return name }
            let end = bytes[start...].firstIndex(of: underscore) ?? bytes.endIndex
            // `lowerCamel` on bytes: a leading run of capitals lowered, but for a last capital
            // that starts the next word.
            var leading = start
            while leading < end, isUpper(bytes[leading]) { leading += 1 }
            var lowered = leading
            if leading - start > 1, leading < end, isLower(bytes[leading]) { lowered = leading - 1 }
            return String(unsafeUninitializedCapacity: end - start) { buffer in
                for index in start..<end { buffer[index - start] = index < lowered ? bytes[index] + 32 : bytes[index] }
                return end - start
            }
        } ?? nil
    }

    private static func isUpper(_ byte: UInt8) -> Bool { byte >= 65 && byte <= 90 }
    private static func isLower(_ byte: UInt8) -> Bool { byte >= 97 && byte <= 122 }

    /// The accessor name of an inline fragment on a narrower type: `as` + the type's name (`asUser`).
    package static func typeConditionAccessorName(type name: String) -> String {
        "as" + upperCamel(name)
    }

    /// Lower-camel-cases a name the Swift way: a leading run of capitals is lowered except for a
    /// last capital that starts the next word (`IssueRow` → `issueRow`, `URLFields` → `urlFields`,
    /// `URL` → `url`); everything else is kept.
    package static func lowerCamel(_ name: String) -> String {
        let scalars = Array(name.unicodeScalars)
        var leading = 0
        while leading < scalars.count, isUpper(scalars[leading]) { leading += 1 }
        if leading == 0 { return name }
        var lowerCount = leading
        // "URLFields": lower "UR", keep "L" as the start of "Fields".
        if leading > 1, leading < scalars.count, isLower(scalars[leading]) { lowerCount = leading - 1 }
        var result = String.UnicodeScalarView()
        for (index, scalar) in scalars.enumerated() {
            if index < lowerCount, let lowered = Unicode.Scalar(scalar.value + 32) {
                result.append(lowered)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }

    /// Upper-camel-cases a name: its first ASCII letter capitalised (`issues` → `Issues`); other
    /// characters are kept.
    package static func upperCamel(_ name: String) -> String {
        guard let first = name.utf8.first, first >= 97, first <= 122 else { return name }
        // An ASCII lower-case letter is one byte: replace it, copy the rest as it is (straight from the name's
        // UTF-8 into the new string, no array of the bytes in between and no walk byte by byte).
        var name = name
        return name.withUTF8 { bytes in
            String(unsafeUninitializedCapacity: bytes.count) { buffer in
                UnsafeMutableRawBufferPointer(buffer).copyMemory(from: UnsafeRawBufferPointer(bytes))
                buffer[0] = first - 32
                return bytes.count
            }
        }
    }

    /// The type name of a nested lens: `upperCamel(accessor)`, with `2`, `3`, … appended until it
    /// differs from every name in `taken` (siblings' and enclosing lenses' type names).
    package static func nestedTypeName(accessor: String, taken: Set<String>) -> String {
        nestedTypeName(accessor: accessor) { taken.contains($0) }
    }

    /// `nestedTypeName(accessor:taken:)` asking `isTaken` instead of a set (the builder's names
    /// taken are its ancestors' and its siblings', kept apart rather than joined per lens).
    package static func nestedTypeName(accessor: String, isTaken: (String) -> Bool) -> String {
        let base = upperCamel(accessor)
        if !isTaken(base) { return base }
        var number = 2
        while isTaken(base + String(number)) { number += 1 }
        return base + String(number)
    }

    private static func isUpper(_ scalar: Unicode.Scalar) -> Bool { scalar.value >= 65 && scalar.value <= 90 }
    private static func isLower(_ scalar: Unicode.Scalar) -> Bool { scalar.value >= 97 && scalar.value <= 122 }
}
