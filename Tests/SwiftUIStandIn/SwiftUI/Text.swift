// Text, its localized key and fonts, as Apple documents them (see View.swift).

/// `@frozen struct Text: Equatable, Sendable`: a view that displays one or more lines of read-only text.
@frozen
public struct Text: Equatable, Sendable {
    @usableFromInline let content: String
    @usableFromInline let font: Font?

    @usableFromInline init(content: String, font: Font?) {
        self.content = content
        self.font = font
    }

    /// Creates a text view that displays a string literal without localization.
    @inlinable
    public init(verbatim content: String) { self.init(content: content, font: nil) }

    /// Creates a text view that displays a stored string without localization.
    @_disfavoredOverload
    public init<S>(_ content: S) where S: StringProtocol { self.init(content: String(content), font: nil) }

    /// Creates a text view that displays localized content identified by a key.
    public init(
        _ key: LocalizedStringKey, tableName: String? = nil, bundle: Bundle? = nil, comment: StaticString? = nil
    ) {
        self.init(content: key.key, font: nil)
    }

    /// Sets the default font for text in the view.
    nonisolated public func font(_ font: Font?) -> Text { Text(content: content, font: font) }
}

extension Text: View {
    public typealias Body = Never
    public var body: Never { primitiveBody(Self.self) }
}

/// `@frozen struct LocalizedStringKey: Equatable, ExpressibleByStringInterpolation`: the key for a localized string.
@frozen
public struct LocalizedStringKey: Equatable, ExpressibleByStringInterpolation {
    @usableFromInline let key: String

    /// Creates a localized string key from the given string value.
    public init(_ value: String) { key = value }

    /// Creates a localized string key from the given string literal.
    public init(stringLiteral value: String) { key = value }

    /// Creates a localized string key from the given string interpolation.
    public init(stringInterpolation: StringInterpolation) { key = stringInterpolation.text }

    /// Represents the contents of a string literal with interpolations while it's being built.
    public struct StringInterpolation: StringInterpolationProtocol {
        @usableFromInline var text = ""

        public init(literalCapacity: Int, interpolationCount: Int) {}

        /// Appends a literal string.
        public mutating func appendLiteral(_ literal: String) { text += literal }

        /// Appends a string.
        public mutating func appendInterpolation(_ string: String) { text += string }

        /// Appends an optionally-formatted instance of a Foundation value type.
        public mutating func appendInterpolation<Subject>(_ subject: Subject, formatter: Formatter? = nil)
        where Subject: ReferenceConvertible {
            text += "\(subject)"
        }

        /// Appends a type, convertible to a string by using a default format specifier.
        public mutating func appendInterpolation<T>(_ value: T) where T: _FormatSpecifiable { text += "\(value)" }

        /// Appends a type, convertible to a string with a format specifier.
        public mutating func appendInterpolation<T>(_ value: T, specifier: String) where T: _FormatSpecifiable {
            text += "\(value)"
        }

        /// Appends the string displayed by a text view.
        public mutating func appendInterpolation(_ text: Text) { self.text += text.content }

        /// Appends an attributed string.
        public mutating func appendInterpolation(_ attributedString: AttributedString) {
            text += String(attributedString.characters)
        }

        /// A view is not text.
        @available(
            *, unavailable,
            message:
                "Unsupported type for interpolation, see LocalizedStringKey.StringInterpolation for supported types."
        )
        public mutating func appendInterpolation<T>(_ view: T) where T: View {}
    }
}

@available(*, unavailable)
extension LocalizedStringKey: Sendable {}

/// `protocol _FormatSpecifiable: Equatable`: a value `LocalizedStringKey` formats with a `printf` specifier.
public protocol _FormatSpecifiable: Equatable {
    associatedtype _Arg: CVarArg
    var _arg: _Arg { get }
    var _specifier: String { get }
}

extension Int: _FormatSpecifiable {
    public var _arg: Int64 { Int64(self) }
    public var _specifier: String { "%lld" }
}

extension Int32: _FormatSpecifiable {
    public var _arg: Int32 { self }
    public var _specifier: String { "%d" }
}

extension Int64: _FormatSpecifiable {
    public var _arg: Int64 { self }
    public var _specifier: String { "%lld" }
}

extension UInt: _FormatSpecifiable {
    public var _arg: UInt64 { UInt64(self) }
    public var _specifier: String { "%llu" }
}

extension Double: _FormatSpecifiable {
    public var _arg: Double { self }
    public var _specifier: String { "%lf" }
}

extension Float: _FormatSpecifiable {
    public var _arg: Float { self }
    public var _specifier: String { "%f" }
}

/// `@frozen struct Font: Hashable, Sendable`: an environment-dependent font.
@frozen
public struct Font: Hashable, Sendable {
    @usableFromInline let name: String

    @usableFromInline init(name: String) { self.name = name }

    public static let largeTitle = Font(name: "largeTitle")
    public static let title = Font(name: "title")
    public static let headline = Font(name: "headline")
    public static let subheadline = Font(name: "subheadline")
    public static let body = Font(name: "body")
    public static let caption = Font(name: "caption")
}

extension View {
    /// Sets the default font for text in this view.
    @inlinable
    nonisolated public func font(_ font: Font?) -> some View { _FontView(content: self, font: font) }
}

/// What `font(_:)` returns (SwiftUI's is a `ModifiedContent`; only its `some View` is public).
public struct _FontView<Content: View> {
    @usableFromInline let content: Content
    @usableFromInline let font: Font?
    @usableFromInline init(content: Content, font: Font?) {
        self.content = content
        self.font = font
    }
}

extension _FontView: View {
    public typealias Body = Never
    public var body: Never { primitiveBody(Self.self) }
}
