// Lists, loops, stacks, progress and buttons, as Apple documents them (see View.swift).

/// `struct ForEach<Data, ID, Content> where Data: RandomAccessCollection, ID: Hashable`: a structure that computes
/// views on demand from an underlying collection of identified data.
public struct ForEach<Data, ID, Content> where Data: RandomAccessCollection, ID: Hashable {
    /// The collection of underlying identified data that SwiftUI uses to create views dynamically.
    public var data: Data
    /// A function to create content on demand using the underlying data.
    public var content: (Data.Element) -> Content
}

@available(*, unavailable)
extension ForEach: Sendable {}

extension ForEach: View where Content: View {
    public typealias Body = Never
    public var body: Never { primitiveBody(Self.self) }
}

extension ForEach where ID == Data.Element.ID, Content: View, Data.Element: Identifiable {
    /// Creates an instance that uniquely identifies and creates views across updates based on the identity of the
    /// underlying data.
    public init(_ data: Data, @ViewBuilder content: @escaping (Data.Element) -> Content) {
        self.data = data
        self.content = content
    }
}

extension ForEach where Content: View {
    /// Creates an instance that uniquely identifies and creates views across updates based on the provided key
    /// path to the underlying data's identifier.
    public init(_ data: Data, id: KeyPath<Data.Element, ID>, @ViewBuilder content: @escaping (Data.Element) -> Content)
    {
        self.data = data
        self.content = content
    }
}

extension ForEach where Data == Range<Int>, ID == Int, Content: View {
    /// Creates an instance that computes views on demand over a given constant range.
    public init(_ data: Range<Int>, @ViewBuilder content: @escaping (Int) -> Content) {
        self.data = data
        self.content = content
    }
}

/// `@MainActor @preconcurrency struct List<SelectionValue, Content> where SelectionValue: Hashable, Content: View`:
/// a container that presents rows of data arranged in a single column.
@MainActor
@preconcurrency
public struct List<SelectionValue, Content>: View where SelectionValue: Hashable, Content: View {
    nonisolated(unsafe) let content: Content
    nonisolated init(rows content: Content) { self.content = content }
    public var body: some View { EmptyView() }
}

extension List where SelectionValue == Never {
    /// Creates a list with the given content.
    nonisolated public init(@ViewBuilder content: () -> Content) { self.init(rows: content()) }

    /// Creates a list that computes its rows on demand from an underlying collection of identifiable data.
    nonisolated public init<Data, RowContent>(
        _ data: Data, @ViewBuilder rowContent: @escaping (Data.Element) -> RowContent
    )
    where
        Content == ForEach<Data, Data.Element.ID, RowContent>, Data: RandomAccessCollection, RowContent: View,
        Data.Element: Identifiable
    {
        self.init(rows: ForEach(data, content: rowContent))
    }

    /// Creates a list that identifies its rows based on a key path to the identifier of the underlying data.
    nonisolated public init<Data, ID, RowContent>(
        _ data: Data, id: KeyPath<Data.Element, ID>, @ViewBuilder rowContent: @escaping (Data.Element) -> RowContent
    ) where Content == ForEach<Data, ID, RowContent>, Data: RandomAccessCollection, ID: Hashable, RowContent: View {
        self.init(rows: ForEach(data, id: id, content: rowContent))
    }
}

/// `@frozen struct HorizontalAlignment: Equatable`: an alignment position along the horizontal axis.
@frozen
public struct HorizontalAlignment: Equatable, Sendable {
    @usableFromInline let name: String
    @usableFromInline init(name: String) { self.name = name }
    public static let leading = HorizontalAlignment(name: "leading")
    public static let center = HorizontalAlignment(name: "center")
    public static let trailing = HorizontalAlignment(name: "trailing")
}

/// `@frozen struct VStack<Content> where Content: View`: a view that arranges its subviews in a vertical line.
@frozen
public struct VStack<Content> where Content: View {
    @usableFromInline let content: Content

    /// Creates an instance with the given spacing and horizontal alignment.
    @inlinable
    public init(alignment: HorizontalAlignment = .center, spacing: CGFloat? = nil, @ViewBuilder content: () -> Content)
    {
        self.content = content()
    }
}

extension VStack: View {
    public typealias Body = Never
    public var body: Never { primitiveBody(Self.self) }
}

/// `@MainActor @preconcurrency struct ProgressView<Label, CurrentValueLabel>`: a view that shows the progress toward
/// completion of a task.
@MainActor
@preconcurrency
public struct ProgressView<Label, CurrentValueLabel>: View where Label: View, CurrentValueLabel: View {
    public var body: some View { EmptyView() }
}

extension ProgressView where CurrentValueLabel == EmptyView {
    /// Creates a progress view for showing indeterminate progress, without a label.
    nonisolated public init() where Label == EmptyView {}
}

/// `@MainActor @preconcurrency struct Button<Label> where Label: View`: a control that initiates an action.
@MainActor
@preconcurrency
public struct Button<Label>: View where Label: View {
    let action: @MainActor () -> Void
    nonisolated(unsafe) let label: Label

    /// Creates a button that displays a custom label.
    @preconcurrency
    public init(action: @escaping @MainActor () -> Void, @ViewBuilder label: () -> Label) {
        self.action = action
        self.label = label()
    }

    nonisolated init(label: Label, action: @escaping @MainActor () -> Void) {
        self.action = action
        self.label = label
    }

    public var body: some View { label }
}

extension Button where Label == Text {
    /// Creates a button that generates its label from a localized string key.
    @preconcurrency
    nonisolated public init(_ titleKey: LocalizedStringKey, action: @escaping @MainActor () -> Void) {
        self.init(label: Text(titleKey), action: action)
    }

    /// Creates a button that generates its label from a string.
    @_disfavoredOverload
    @preconcurrency
    nonisolated public init<S>(_ title: S, action: @escaping @MainActor () -> Void) where S: StringProtocol {
        self.init(label: Text(title), action: action)
    }
}
