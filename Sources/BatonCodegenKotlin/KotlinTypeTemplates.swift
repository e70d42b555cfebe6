import BatonCodegen
import BatonDeclarations
import BatonSchema

/// Templates for the schema types the documents use: custom scalars, enums, input objects.
enum KotlinTypeTemplates {
    /// A custom scalar: a type alias for the app's type from `customScalarTypes` (converted by its converter
    /// object at the read), or for `String` (the text exactly as the server wrote it).
    static func customScalar(_ scalar: CustomScalarDeclaration, _ context: KotlinContext) -> Template {
        let name = KotlinNames.quoted(context.names.scalars[scalar.name] ?? scalar.name)
        var doc = scalar.documentation ?? ""
        if let url = scalar.specifiedBy { doc += (doc.isEmpty ? "" : "\n\n") + "Specified by \(url)." }
        if let type = scalar.kotlinType, let converter = scalar.kotlinConverter {
            doc +=
                (doc.isEmpty ? "" : "\n\n")
                + "The custom scalar `\(scalar.name)`, read as `\(type)` through `\(converter)`."
            return """
                \(DocComment.block(doc))
                typealias \(name) = \(type)
                """
        }
        doc += (doc.isEmpty ? "" : "\n\n") + "The custom scalar `\(scalar.name)`, read as its text."
        return """
            \(DocComment.block(doc))
            typealias \(name) = String
            """
    }

    /// Names no enum value object takes: the companion and its members, `Undeclared`, and the types the class
    /// body names.
    private static let enumValueBase = KotlinScope(
        ["Companion", "Undeclared", "fromRawValue", "knownValues", "rawValue", "EnumValue"]
            + (IdentifierRules.kotlin.unusable[.type] ?? [])
    ).flattened()

    /// An enum: a sealed class with an object per value the build knows and `Undeclared` for the rest.
    static func enumeration(_ model: EnumDeclaration, _ context: KotlinContext) -> Template {
        let typeName = context.names.enums[model.name] ?? model.name
        let type = KotlinNames.quoted(typeName)
        // Value objects are nested classes: unique ignoring case (class files), apart from the enum's own
        // name, the companion's members and every generated type the file could mean.
        var scope = KotlinScope(base: enumValueBase, [typeName])
        let values = model.values.map { value in
            (value, scope.claim(KotlinNames.declared(value.name, .enumCase), ignoringCase: true))
        }
        let objects = values.map { value, name -> Template in
            let deprecation: Template =
                value.deprecation.map { deprecation in
                    Template("@Deprecated(\(KotlinLiteral.string(deprecation.reason)))")
                } ?? .empty
            return """
                \(DocComment.block(value.documentation))
                \(deprecation)
                object \(KotlinNames.quoted(name)) : \(type)(\(KotlinLiteral.string(value.name)))
                """
        }
        let cases = values.map { value, name in
            Template("\(KotlinLiteral.string(value.name)) -> \(KotlinNames.quoted(name))")
        }
        let known = values.map { KotlinNames.quoted($0.1) }
        let hasDeprecated = model.values.contains { $0.deprecation != nil }
        let suppress: Template = hasDeprecated ? "@Suppress(\"DEPRECATION\")" : .empty
        // Past the tree's `branchLimit`, the value of a text is found through a table the runtime builds once
        // from `knownValues`, as Swift's is. Every name it mentions is one no value object takes.
        let lookup: Template =
            model.findsValueThroughTable
            ? """
            fun fromRawValue(rawValue: String): \(type) =
                EnumValue.find(\(type)::class.java, rawValue) { knownValues } ?: Undeclared(rawValue)
            """
            : """
            \(suppress)
            fun fromRawValue(rawValue: String): \(type) = when (rawValue) {
                \(lines: cases)
                else -> Undeclared(rawValue)
            }
            """
        return """
            \(DocComment.block(model.documentation))
            sealed class \(type)(override val rawValue: String) : EnumValue {
                \(lines: objects, separator: "\n\n")

                /** A value this build does not know (the schema gained it later): [scalarText] is its text. */
                data class Undeclared(val scalarText: String) : \(type)(scalarText)

                override fun toString(): String = rawValue

                companion object {
                    /** The value whose text is [rawValue]; [Undeclared] for a text this build does not know. */
                    \(lookup)

                    /** Every value this build knows, in schema order. */
                    \(suppress)
                    val knownValues: List<\(type)> get() = listOf(\(joined: known, separator: ", "))
                }
            }
            """
    }

    /// An input object: a class with a property per field (absent unless set, for fields that may be left
    /// out), or for `@oneOf` a sealed class with one subclass per field.
    static func inputObject(_ model: InputObjectDeclaration, _ context: KotlinContext) -> Template {
        model.isOneOf ? oneOf(model, context) : plainInput(model, context)
    }

    /// The members every input object class has, which a field's property must not shadow.
    private static let inputReserved = ["toJson", "JsonObjectBuilder", "mapOf", "to"]

    private static func plainInput(_ model: InputObjectDeclaration, _ context: KotlinContext) -> Template {
        let type = KotlinNames.quoted(context.names.inputObjects[model.name] ?? model.name)
        var scope = KotlinScope(inputReserved)
        var parameters: [Template] = []
        var puts: [Template] = []
        for field in model.fields {
            let name = KotlinNames.quoted(scope.claim(KotlinNames.declared(field.name, .member), ignoringCase: false))
            let annotation = KotlinNames.jvmName(name.replacingAll("`", with: ""), getter: field.jvmGetter)
            let mayBeLeftOut = field.presence.mayBeLeftOut
            let fieldType = field.type.schemaType
            let valueType = context.inputType(fieldType)
            let declaration = mayBeLeftOut ? "Optional<\(valueType)> = Optional.Absent" : valueType
            let deprecation =
                field.deprecation.map {
                    "@Deprecated(\(KotlinLiteral.string($0.reason))) "
                } ?? ""
            let doc = DocComment.block(field.documentation)
            parameters.append(
                """
                \(doc)
                \(deprecation)\(annotation.map { $0 + " " } ?? "")val \(name): \(declaration)
                """)
            let encoded: String
            if mayBeLeftOut {
                encoded = context.encoding("v", fieldType, depth: 1).map { "\(name).map { v -> \($0) }" } ?? name
            } else {
                encoded = context.encoding(name, fieldType) ?? name
            }
            puts.append(".put(\(KotlinLiteral.string(field.name)), \(encoded))")
        }
        return """
            \(DocComment.block(model.documentation))
            data class \(type)(
                \(lines: parameters, separator: ",\n")
            ) : InputObject {
                \(if: model.hasDeprecatedField, "@Suppress(\"DEPRECATION\")")
                override fun toJson(): Map<String, Any?> = JsonObjectBuilder()
                    \(lines: puts)
                    .build()
            }
            """
    }

    private static func oneOf(_ model: InputObjectDeclaration, _ context: KotlinContext) -> Template {
        let typeName = context.names.inputObjects[model.name] ?? model.name
        let type = KotlinNames.quoted(typeName)
        var classes = KotlinScope(base: context.nestedTypeBase, [typeName])
        let cases = model.fields.map { field -> Template in
            let className = KotlinNames.quoted(
                classes.claim(KotlinNames.declared(Casing.upperFirst(field.name), .type), ignoringCase: true))
            var members = KotlinScope(inputReserved)
            let property = KotlinNames.quoted(
                members.claim(KotlinNames.declared(field.name, .member), ignoringCase: false))
            let annotation = KotlinNames.jvmName(property.replacingAll("`", with: ""), getter: field.jvmGetter)
            let fieldType = field.type.nonOptional.schemaType
            let valueType = context.inputType(fieldType)
            let encoded = context.encoding(property, fieldType) ?? property
            let deprecation =
                field.deprecation.map {
                    "@Deprecated(\(KotlinLiteral.string($0.reason)))\n"
                } ?? ""
            return """
                \(DocComment.block(field.documentation))
                \(deprecation)class \(className)(\(annotation.map { $0 + " " } ?? "")val \(property): \(valueType)) : \(type)() {
                    override fun toJson(): Map<String, Any?> = mapOf(\(KotlinLiteral.string(field.name)) to \(encoded))
                }
                """
        }
        return """
            \(DocComment.block(model.documentation))
            sealed class \(type) : InputObject {
                \(lines: cases, separator: "\n\n")
            }
            """
    }
}
