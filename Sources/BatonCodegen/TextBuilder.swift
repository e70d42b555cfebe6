/// Generated text built by appending UTF-8 bytes: for the parts of a file written line by line from
/// many small strings (a lens's fields and accessors), where `String`'s `+` and `append` cost several
/// hundred instructions each and a `Template` per piece more.
package struct TextBuilder {
    package var bytes: [UInt8] = []

    @inlinable
    package init(capacity: Int = 256) { bytes.reserveCapacity(capacity) }

    package var isEmpty: Bool { bytes.isEmpty }

    /// Appends `text`'s UTF-8 bytes.
    @inlinable
    package mutating func add(_ text: String) {
        let done: Void? = text.utf8.withContiguousStorageIfAvailable { bytes.append(contentsOf: $0) }
        if done == nil { bytes.append(contentsOf: text.utf8) }
    }

    /// Appends one ASCII character.
    @inlinable
    package mutating func add(_ byte: UInt8) { bytes.append(byte) }

    /// The text as a template (written as it is, re-indented where it is interpolated).
    package var template: Template { Template(text) }

    /// The text.
    package var text: String { String(decoding: bytes, as: UTF8.self) }
}
