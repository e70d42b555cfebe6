import BatonIR

/// One plate: a lens printed as a table of accessors (`accessor`, `reads`, `as`).
package struct Plate: Sendable {
    /// What the plate shows.
    package enum Subject: Sendable {
        case operation(OperationModel)
        case fragment(FragmentModel)
        /// A lens nested in a definition, at a path of accessor names.
        case nested(definition: String, path: [String], lens: Lens)
    }

    package var subject: Subject
    /// The sentence above the table: `The lens of RepositoryQuery, an operation's data, reads a
    /// record of type Query:`.
    package var title: String
    package var rows: [PlateRow]

    package init(subject: Subject) {
        self.subject = subject
        switch subject {
        case .operation(let operation):
            let policy = operation.throwOnFieldError ? ", under @throwOnFieldError" : ""
            title =
                "The lens of \(operation.name), an operation's data, reads a record of type \(operation.rootType)\(Self.key(operation.lens))\(policy):"
            rows = PlateRow.rows(of: operation.lens)
        case .fragment(let fragment):
            let policy = fragment.throwOnFieldError ? ", under @throwOnFieldError" : ""
            title =
                "The lens of \(fragment.name), a fragment, reads a record of type \(fragment.typeCondition)\(Self.key(fragment.lens))\(policy):"
            rows = PlateRow.rows(of: fragment.lens)
        case .nested(let definition, let path, let lens):
            title =
                "The lens at \(([definition] + path).joined(separator: ".")) reads a record of type \(lens.recordType)\(Self.key(lens)):"
            rows = PlateRow.rows(of: lens)
        }
    }

    /// `, keyed by id and mediaId` when the record type has a declared key (`RecordKeyPolicy`).
    static func key(_ lens: Lens) -> String { PlatePhrase.keyPhrase(lens).map { ", " + $0 } ?? "" }

    /// The plate's name for listings: the definition's name, or its dotted path.
    package var name: String {
        switch subject {
        case .operation(let operation): operation.name
        case .fragment(let fragment): fragment.name
        case .nested(let definition, let path, _): ([definition] + path).joined(separator: ".")
        }
    }
}

/// One row: an accessor at a nesting depth.
package struct PlateRow: Sendable, Hashable {
    package var depth: Int
    package var accessor: String
    package var reads: String
    package var phrase: String

    package init(depth: Int, accessor: String, reads: String, phrase: String) {
        self.depth = depth
        self.accessor = accessor
        self.reads = reads
        self.phrase = phrase
    }

    /// The rows of a lens, depth first in accessor order (the model's nesting is bounded); a
    /// connection's lens ends with the row of its `ConnectionID` member.
    package static func rows(of lens: Lens) -> [PlateRow] {
        var rows: [PlateRow] = []
        func visit(_ lens: Lens, depth: Int, inConnection: Bool) {
            for accessor in lens.accessors {
                rows.append(
                    PlateRow(
                        depth: depth, accessor: accessor.name, reads: PlatePhrase.reads(accessor),
                        phrase: PlatePhrase.phrase(for: accessor, inConnection: inConnection)))
                if let child = accessor.lens {
                    visit(child, depth: depth + 1, inConnection: accessor.connection != nil)
                }
            }
            if let name = lens.connectionIDName {
                rows.append(
                    PlateRow(
                        depth: depth, accessor: name, reads: PlatePhrase.connectionIDReads,
                        phrase: PlatePhrase.connectionIDPhrase))
            }
        }
        visit(lens, depth: 0, inConnection: false)
        return rows
    }
}
