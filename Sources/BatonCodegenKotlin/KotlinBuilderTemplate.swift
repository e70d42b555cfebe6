import BatonCodegen
import BatonDeclarations
import BatonIR
import BatonSchema

/// A definition's test data builder (`output.kotlin.testBuilders`), as the Swift generator's `SwiftBuilderTemplate`
/// spells it, for a test source set with the test kit (`baton.testing`):
///
///     class RepositoryQueryBuilder(var repository: BuiltField<Repository>? = null) : OperationDataBuilder {
///         override val operationName: String = "RepositoryQuery"
///         override fun buildObject(context: BuildContext, parent: String?): BuiltObject
///         class Repository(…) : DataBuilder { … }
///     }
///
/// What each builder holds, fills and merges is the tree's (`TestBuilderDeclaration`, `TestBuilderShape` lowered); the
/// top-level names are the model's
/// (`TestBuilderNaming`).
struct KotlinBuilderTemplate {
    let naming: TestBuilderNaming
    let typeName: String
    /// The definition's builder, with its nested lenses' builders.
    let root: TestBuilderDeclaration
    let operationName: String?
    /// The fragment's name, for a fragment's builder.
    let fragmentName: String?

    private struct Property {
        var name: String
        var type: String
        var write: String
        /// Its getter on the JVM, as the tree states it (`typename`'s is its natural one, taken first).
        var jvmGetter = "getTypename"
    }

    func render() -> Template {
        """
        /**
         * Test data for `\(operationName ?? fragmentName ?? root.recordType)`: a response the real runtime commits and reads
         * (`MockEnvironment.resolve(builder)`).
         */
        \(builder(root, name: typeName, isRoot: true))
        """
    }

    private static func declaredType(_ name: String) -> String { KotlinNames.quoted(KotlinNames.declared(name, .type)) }

    private func builder(_ shape: TestBuilderDeclaration, name: String, isRoot: Bool) -> Template {
        var scope = KotlinScope(["typename", "buildObject", "operationName", "listOf", "emptyList", "kotlin", "baton"])
        var properties: [Property] = []
        var nested: [Template] = []
        var narrowing: [String] = []
        if shape.takesTypename { properties.append(Property(name: "typename", type: "String", write: "")) }
        for property in shape.properties {
            // The property declared for it, if any, takes the tree's getter.
            let declared = properties.count
            defer { if properties.count > declared { properties[properties.count - 1].jvmGetter = property.jvmGetter } }
            let memberName = scope.claim(KotlinNames.declared(property.name, .member), ignoringCase: false)
            let value = "this." + KotlinNames.quoted(memberName)
            switch property.part {
            case .field(let field, let inner):
                var builderType: String?
                if let inner {
                    builderType = Self.declaredType(inner.typeName)
                    nested.append(builder(inner, name: inner.typeName, isRoot: false))
                }
                properties.append(fieldProperty(memberName, field, builderType: builderType))
            case .fragmentSpread(let fragmentName):
                let type = KotlinNames.quoted(naming.fragments[fragmentName] ?? fragmentName + "Builder")
                properties.append(spread(memberName, type: type, appliesTo: property.appliesTo))
                if let types = property.appliesTo {
                    narrowing.append("BuilderNarrowing(\(value) != null, \(Self.list(types)))")
                }
            case .inlineFragment(let inner):
                guard let inner else { continue }
                let type = Self.declaredType(inner.typeName)
                nested.append(builder(inner, name: inner.typeName, isRoot: false))
                properties.append(spread(memberName, type: type, appliesTo: property.appliesTo))
                if let types = property.appliesTo {
                    narrowing.append("BuilderNarrowing(\(value) != null, \(Self.list(types)))")
                }
            }
        }
        for (key, getter) in zip(shape.keyFields, shape.keyFieldJVMGetters) {
            var property = fieldProperty(
                scope.claim(KotlinNames.declared(key.fieldName, .member), ignoringCase: false), key, builderType: nil)
            property.jvmGetter = getter
            properties.append(property)
        }
        let typename: Template =
            shape.takesTypename
            ? """
            val typename = BuildContext.typename(
                parent, this.typename, \(narrowing.isEmpty ? "emptyList()" : "listOf(" + narrowing.joined(separator: ", ") + ")"),
                \(KotlinLiteral.string(shape.defaultTypename))
            )
            val obj = BuiltObject(typename, parent == null && this.typename != null)
            """
            : """
            val typename = parent ?: \(KotlinLiteral.string(shape.defaultTypename))
            val obj = BuiltObject(typename, false)
            """
        let conformance = operationName != nil && isRoot ? "OperationDataBuilder" : "DataBuilder"
        let operation: [Template] =
            (isRoot ? operationName : nil).map {
                ["override val operationName: String = \(KotlinLiteral.string($0))", ""]
            } ?? []
        let parameters = properties.map { property in
            (KotlinNames.jvmName(property.name, getter: property.jvmGetter).map { $0 + " " } ?? "")
                + "val \(KotlinNames.quoted(property.name)): \(property.type)? = null"
        }
        let header: Template =
            parameters.isEmpty
            ? "class \(Self.declaredType(name)) : \(conformance) {"
            : """
            class \(Self.declaredType(name))(
                \(lines: parameters.map { Template($0) }, separator: ",\n")
            ) : \(conformance) {
            """
        return """
            \(header)
                \(lines: operation)
                override fun buildObject(context: BuildContext, parent: String?): BuiltObject {
                    \(typename)
                    \(each: properties.filter { !$0.write.isEmpty }, { Template($0.write) })
                    return obj
                }
                \(each: nested, { "\n\($0)" })
            }
            """
    }

    /// A field's property (a selected field, or a key field no selection gives): its `BuiltField` and its write
    /// under `responseKey`, filled by `fill` when unset.
    private func fieldProperty(_ name: String, _ field: TestBuilderField, builderType: String?) -> Property {
        let base = builderType ?? Self.givenType(field.value)
        let template = builderType.map { ", \($0)()" } ?? ""
        return Property(
            name: name, type: "BuiltField<\(Self.valueType(field.schemaType.schemaType, base: base))>",
            write:
                "obj.field(\(KotlinLiteral.string(field.responseKey)), this.\(KotlinNames.quoted(name)), context, \(fillText(field.fill, fieldName: field.fieldName, builder: builderType))\(template))"
        )
    }

    private func spread(_ name: String, type: String, appliesTo: [String]?) -> Property {
        let applies = appliesTo.map(Self.list) ?? "null"
        return Property(
            name: name, type: type,
            write: "obj.spread(this.\(KotlinNames.quoted(name)), \(type)(), \(applies), typename, context)")
    }

    private func fillText(_ fill: TestBuilderFill, fieldName: String, builder: String?) -> String {
        switch fill {
        case .null: return "BuilderFill.Null"
        case .emptyList: return "BuilderFill.EmptyList"
        case .id: return "BuilderFill.Id"
        case .scalar(let scalar):
            return "BuilderFill.Scalar(\(KotlinLiteral.string(scalar)), \(KotlinLiteral.string(fieldName)))"
        case .enumValue(let type, let first):
            return "BuilderFill.EnumValue(\(KotlinLiteral.string(type)), \(KotlinLiteral.string(first)))"
        case .object: return builder.map { "BuilderFill.Object(\($0)())" } ?? "BuilderFill.Null"
        }
    }

    private static func list(_ names: [String]) -> String {
        "listOf(" + names.map(KotlinLiteral.string).joined(separator: ", ") + ")"
    }

    /// The Kotlin type a scalar or enum is given as (`TestBuilderValue`).
    private static func givenType(_ value: TestBuilderValue) -> String {
        switch value {
        case .int: return "Int"
        case .float: return "Double"
        case .boolean: return "Boolean"
        case .text, .builder: return "String"
        }
    }

    private static func valueType(_ type: TypeRef, base: String) -> String {
        switch type {
        case .named: return base
        case .nonNull(let inner): return valueType(inner, base: base)
        case .list(let item): return "List<BuiltField<" + valueType(item, base: base) + ">>"
        }
    }
}

extension KotlinGenerator {
    /// The test kit's names a builder file imports when it mentions them.
    static let builderKitNames = [
        "BuildContext", "BuilderFill", "BuilderNarrowing", "BuiltField", "BuiltObject", "DataBuilder",
        "OperationDataBuilder",
    ]

    /// The test data builders (`output.kotlin.testBuilders`): one file per operation and fragment in `packageName`,
    /// named after its builder (`RepositoryQueryBuilder.kt`), importing the test kit (`baton.testing`).
    package static func generateTestBuilders(
        _ model: LensModel, packageName: String, keeping kept: Set<String> = []
    ) -> [GeneratedFile] {
        let layout = TestBuilderLayout(model)
        let naming = layout.naming
        let firstValues = TestBuilderDefinition.firstEnumValues(model)
        let declarations = DeclarationLowering(model)
        let packageLine =
            "package " + packageName.split(separator: ".").map { KotlinNames.quoted(String($0)) }.joined(separator: ".")
        let files = TestBuilderDefinition.all(model, layout: layout).map { builder, file -> GeneratedFile in
            let path = file + fileExtension
            if kept.contains(builder.definitionKey) {
                return .kept(path: path, origin: nil, definition: builder.definitionKey)
            }
            // The builder lowered here, in the file's job, and printed.
            let body = KotlinBuilderTemplate(
                naming: naming, typeName: builder.typeName,
                root: declarations.testBuilder(builder.lens, firstEnumValues: firstValues),
                operationName: builder.operationName, fragmentName: builder.fragmentName
            ).render().text
            let imports = builderKitNames.filter { body.contains($0) }.map { "import baton.testing." + $0 }
            var text =
                FileWriter.header + "\n\n" + packageLine + "\n\n" + imports.joined(separator: "\n") + "\n\n" + body
            Template.trimTrailingSpaces(&text)
            return GeneratedFile(path: path, contents: text + "\n", definition: builder.definitionKey)
        }
        return files.sorted { $0.path < $1.path }
    }
}
