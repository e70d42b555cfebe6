import BatonIR

/// The plan as text, for generator fixtures: every definition with its generated name and (for an
/// operation) its id, every accessor with what it reads, its shape (`PlanAgreement.shapes`), its
/// presence, its `@required` and `@catch`, and the levels a valid response never leaves null.
package enum PlanText {
    package static func render(_ model: LensModel) -> String {
        var lines: [String] = []
        for operation in model.operations {
            lines.append(
                "\(operation.kind.rawValue) \(operation.name) → \(operation.typeName) on \(operation.rootType), id \(operation.operationID)"
                    + (operation.refetchableFragment.map { ", refetches \($0)" } ?? ""))
            let clientOnly = operation.variables.filter(\.isClientOnly).map { "$" + $0.name }
            if !clientOnly.isEmpty { lines.append("  client-only variables " + clientOnly.joined(separator: ", ")) }
            lines += accessors(operation.lens, depth: 1)
        }
        for fragment in model.fragments {
            var line = "fragment \(fragment.name) → \(fragment.typeName) on \(fragment.typeCondition)"
            line += ", spread as \(fragment.spreadAccessorName)"
            if fragment.rootCanBeNil { line += ", root can be nil" }
            if let refetch = fragment.refetchable {
                line +=
                    ", refetchable by \(refetch.queryName) "
                    + (refetch.throughNode ? "through node(id:)" : "from the root")
                if !refetch.connectionPath.isEmpty {
                    let paging = [
                        refetch.forwardCount.map { "first $" + $0 }, refetch.forwardCursor.map { "after $" + $0 },
                        refetch.backwardCount.map { "last $" + $0 }, refetch.backwardCursor.map { "before $" + $0 },
                    ].compactMap { $0 }
                    line +=
                        ", pages " + refetch.connectionPath.joined(separator: ".") + " by "
                        + paging.joined(separator: " ")
                }
            }
            lines.append(line)
            lines += accessors(fragment.lens, depth: 1)
        }
        for item in model.types.enums { lines.append("enum \(item.name) → \(item.typeName)") }
        for item in model.types.inputObjects { lines.append("input \(item.name) → \(item.typeName)") }
        for item in model.types.customScalars { lines.append("scalar \(item.name) → \(item.typeName)") }
        return lines.joined(separator: "\n") + "\n"
    }

    static func accessors(_ lens: Lens, depth: Int) -> [String] {
        var lines: [String] = []
        let indent = String(repeating: "  ", count: depth)
        if lens.isIdentifiable { lines.append(indent + "(identifiable by id)") }
        if let name = lens.connectionIDName { lines.append(indent + "(connection ID as \(name))") }
        if let key = lens.keyFields { lines.append(indent + "(keyed by " + key.map(\.name).joined(separator: " ") + ")") }
        if let name = lens.optimisticTypeName {
            lines.append(
                indent + "(optimistic builder \(name)" + (lens.recordIsAbstract ? ", typename given" : "") + ")")
        }
        for accessor in lens.accessors {
            let shape = PlanAgreement.shapes(Lens(typeName: "", recordType: "", accessors: [accessor]))[0]
            var parts = [indent + shape]
            switch accessor.reads {
            case .field(let read):
                var field = read.fieldName
                if !read.arguments.isEmpty {
                    field +=
                        "(" + read.arguments.map { "\($0.name): \(ValueText.print($0.value))" }.joined(separator: ", ")
                        + ")"
                }
                parts.append("field " + field)
            case .parentRecord(let read):
                parts.append("record" + (read.matchingTypes.map { " of " + $0.joined(separator: " | ") } ?? ""))
            }
            if !accessor.presence.isAlways { parts.append("when " + accessor.presence.text) }
            if let required = accessor.required {
                var text = "required " + required.action.rawValue
                switch required.bubblesTo {
                case .accessor(let path)?: text += " → " + path.joined(separator: ".")
                case .fragmentSpread(_, let name)?: text += " → spreads (" + name + ")"
                case .operationRoot?: text += " → operation"
                case nil: break
                }
                parts.append(text)
            }
            if let target = accessor.catchMode { parts.append("catch " + target.rawValue) }
            if let connection = accessor.connection {
                parts.append(
                    "connection " + connection.key
                        + (connection.filters.isEmpty ? "" : " filters " + connection.filters.joined(separator: ", ")))
            }
            if let update = accessor.recordUpdate {
                var text = update.kind.rawValue
                if let connections = update.connections { text += " connections " + ValueText.print(connections) }
                if let edge = update.edgeTypeName { text += " edge " + edge }
                if let type = update.typeName { text += " type " + type }
                parts.append(text)
            }
            if !accessor.recordKeys.isEmpty {
                parts.append(
                    "keys " + accessor.recordKeys.map { $0.typeName + "(" + $0.fields.joined(separator: " ") + ")" }
                        .joined(separator: ", "))
            }
            let nonNull = accessor.levels.indices.filter {
                accessor.levels[$0].nonNull && accessor.levels[$0].schemaNullable
            }
            if !nonNull.isEmpty {
                parts.append("non-null by @semanticNonNull at " + nonNull.map(String.init).joined(separator: ", "))
            }
            lines.append(parts.joined(separator: "  "))
            if let child = accessor.lens { lines += accessors(child, depth: depth + 1) }
        }
        return lines
    }
}
