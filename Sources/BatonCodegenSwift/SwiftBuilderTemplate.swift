import BatonCodegen
import BatonDeclarations
import BatonIR
import BatonSchema

/// A definition's test data builder (`output.swift.testBuilders`), written to its own folder for a test target that
/// imports `BatonTesting`:
///
///     struct RepositoryQueryBuilder: BatonTesting.OperationDataBuilder {
///         static let operationName = "RepositoryQuery"
///         var repository: BatonTesting.BuiltField<Repository>?
///         init(repository: BatonTesting.BuiltField<Repository>? = nil)
///         func buildObject(_:typename:) -> BatonTesting.BuiltObject   // response keys, defaults, spreads merged
///         struct Repository: BatonTesting.DataBuilder { … }
///     }
///
/// What each builder holds, fills and merges is the tree's (`TestBuilderDeclaration`, `TestBuilderShape` lowered); the names of the top-level
/// builders are too (`TestBuilderNaming`). A property per field (`BuiltField` of the response's value: lists as
/// arrays of `BuiltField`, composites as nested builders, enums and custom scalars as their text), one per spread
/// (the fragment's builder) and inline fragment (its nested builder), and `typename` where the record type is
/// abstract. The builders refer to nothing the app's generated code declares.
struct SwiftBuilderTemplate {
    let generator: SwiftGenerator
    let naming: TestBuilderNaming
    let typeName: String
    /// The definition's builder, with its nested lenses' builders.
    let root: TestBuilderDeclaration
    /// The operation's GraphQL name, for an operation's builder.
    let operationName: String?
    /// The fragment's name, for a fragment's builder.
    var fragmentName: String? = nil

    private static let rules = IdentifierRules.swift
    private var access: String { generator.access }

    func render() -> Template {
        """
        /// Test data for `\(operationName ?? fragmentName ?? root.recordType)`: a response the real runtime commits and reads \
        (`MockEnvironment.resolve(_:)`).
        \(generator.isolation)\(builder(root, name: typeName, isRoot: true))
        """
    }

    private struct Property {
        var name: String
        var type: String
        var write: String
    }

    private static func declaredType(_ name: String) -> String { rules.quoted(rules.declaredName(name, in: .type)) }

    private func builder(_ shape: TestBuilderDeclaration, name: String, isRoot: Bool) -> Template {
        var scope = NameScope(reserved: ["typename", "buildObject", "buildNode", "operationName"])
        var properties: [Property] = []
        var nested: [Template] = []
        var narrowing: [String] = []
        if shape.takesTypename { properties.append(Property(name: "typename", type: "Swift.String", write: "")) }
        for property in shape.properties {
            let memberName = scope.claim(Self.rules.declaredName(property.name, in: .member))
            let value = "self." + Self.rules.quoted(memberName)
            switch property.part {
            case .field(let field, let inner):
                var builderType: String?
                if let inner {
                    builderType = Self.declaredType(inner.typeName)
                    nested.append(builder(inner, name: inner.typeName, isRoot: false))
                }
                properties.append(fieldProperty(memberName, field, builderType: builderType))
            case .fragmentSpread(let fragmentName):
                let type = Self.rules.quoted(naming.fragments[fragmentName] ?? fragmentName + "Builder")
                properties.append(spread(memberName, type: type, appliesTo: property.appliesTo))
                if let types = property.appliesTo { narrowing.append("(\(value) != nil, \(Self.list(types)))") }
            case .inlineFragment(let inner):
                guard let inner else { continue }
                let type = Self.declaredType(inner.typeName)
                nested.append(builder(inner, name: inner.typeName, isRoot: false))
                properties.append(spread(memberName, type: type, appliesTo: property.appliesTo))
                if let types = property.appliesTo { narrowing.append("(\(value) != nil, \(Self.list(types)))") }
            }
        }
        for key in shape.keyFields {
            properties.append(
                fieldProperty(scope.claim(Self.rules.declaredName(key.fieldName, in: .member)), key, builderType: nil))
        }
        let typename: Template =
            shape.takesTypename
            ? """
            let typename = BatonTesting.BuildContext.typename(
                parent: parent, given: self.typename, narrowing: [\(joined: narrowing, separator: ", ")],
                standard: \(SwiftLiteral.string(shape.defaultTypename)))
            var object = BatonTesting.BuiltObject(typename: typename, isSet: parent == nil && self.typename != nil)
            """
            : """
            let typename = parent ?? \(SwiftLiteral.string(shape.defaultTypename))
            var object = BatonTesting.BuiltObject(typename: typename, isSet: false)
            """
        let conformance = operationName != nil && isRoot ? "OperationDataBuilder" : "DataBuilder"
        let operation: [Template] =
            (isRoot ? operationName : nil).map {
                ["\(access)static let operationName = \(SwiftLiteral.string($0))", ""]
            } ?? []
        let parameters = properties.map { "\(Self.rules.quoted($0.name)): \($0.type)? = nil" }
        return """
            \(access)struct \(Self.declaredType(name)): BatonTesting.\(conformance) {
                \(lines: operation)
                \(each: properties, { "\(access)var \(Self.rules.quoted($0.name)): \($0.type)?" })

                \(access)init(\(joined: parameters, separator: ", ")) {
                    \(each: properties, { "self.\(Self.rules.quoted($0.name)) = \(Self.rules.quoted($0.name))" })
                }

                \(access)func buildObject(
                    _ context: inout BatonTesting.BuildContext, typename parent: Swift.String?
                ) -> BatonTesting.BuiltObject {
                    \(typename)
                    \(each: properties.filter { !$0.write.isEmpty }, { Template($0.write) })
                    return object
                }
                \(each: nested, { "\n\($0)" })
            }
            """
    }

    /// A spread's or inline fragment's property: its builder, merged in when set or when it applies.
    /// A field's property (a selected field, or a key field no selection gives): its `BuiltField` and its write
    /// under `responseKey`, filled by `fill` when unset.
    private func fieldProperty(_ name: String, _ field: TestBuilderField, builderType: String?) -> Property {
        let base = builderType ?? Self.givenType(field.value)
        let template = builderType.map { ", template: \($0)()" } ?? ""
        return Property(
            name: name, type: "BatonTesting.BuiltField<\(Self.valueType(field.schemaType.schemaType, base: base))>",
            write:
                "object.field(\(SwiftLiteral.string(field.responseKey)), self.\(Self.rules.quoted(name)), &context, fill: \(fillText(field.fill, fieldName: field.fieldName, builder: builderType))\(template))"
        )
    }

    private func spread(_ name: String, type: String, appliesTo: [String]?) -> Property {
        let applies = appliesTo.map(Self.list) ?? "nil"
        return Property(
            name: name, type: type,
            write:
                "object.spread(self.\(Self.rules.quoted(name)), standard: \(type)(), appliesTo: \(applies), typename: typename, &context)"
        )
    }

    private func fillText(_ fill: TestBuilderFill, fieldName: String, builder: String?) -> String {
        switch fill {
        case .null: return ".null"
        case .emptyList: return ".emptyList"
        case .id: return ".id"
        case .scalar(let scalar):
            return ".scalar(\(SwiftLiteral.string(scalar)), field: \(SwiftLiteral.string(fieldName)))"
        case .enumValue(let type, let first):
            return ".enumValue(\(SwiftLiteral.string(type)), first: \(SwiftLiteral.string(first)))"
        case .object: return builder.map { ".object(\($0)())" } ?? ".null"
        }
    }

    private static func list(_ names: [String]) -> String {
        "[" + names.map(SwiftLiteral.string).joined(separator: ", ") + "]"
    }

    /// The Swift type a scalar or enum is given as (`TestBuilderValue`).
    private static func givenType(_ value: TestBuilderValue) -> String {
        switch value {
        case .int: return "Swift.Int"
        case .float: return "Swift.Double"
        case .boolean: return "Swift.Bool"
        case .text, .builder: return "Swift.String"
        }
    }

    /// A field's value: `base`, in an array of `BuiltField` per list level.
    private static func valueType(_ type: TypeRef, base: String) -> String {
        switch type {
        case .named: return base
        case .nonNull(let inner): return valueType(inner, base: base)
        case .list(let item): return "[BatonTesting.BuiltField<" + valueType(item, base: base) + ">]"
        }
    }
}
