import BatonCodegen
import BatonDeclarations
import BatonSchema

/// A schema input object: a value type with a property per field, typed as the schema types it.
///
/// Absent, null and a value are three states: a nullable field is a `Baton.GraphQLNullable<T>` property
/// (`.absent`, `.null`, `.value(x)`), but the initializer takes a plain optional, `nil` meaning absent — so
/// `AddCommentInput(body: body, subjectId: id)` leaves the rest out of the request, and an explicit null is
/// `input.clientMutationId = .null`. A non-null field with a default is optional (nil: absent, the server's
/// default applies). A `@oneOf` input object is an enum with a case per field.
struct SwiftInputObjectTemplate {
    let generator: SwiftGenerator
    let model: InputObjectDeclaration
    let typeName: String

    private static let rules = IdentifierRules.swift
    private var names: SwiftNames { generator.names }

    private struct Member {
        var field: InputFieldDeclaration
        var name: String
        /// How the property is typed: by what a request may send (the model's decision).
        var kind: InputFieldPresence { field.presence }
    }

    func render() -> Template {
        generator.inSchemaNamespace(model.isOneOf ? renderOneOf() : renderStruct())
    }

    private func renderStruct() -> Template {
        var scope = NameScope(reserved: ["jsonValue"])
        let members = model.fields.map { field in
            Member(field: field, name: scope.claim(Self.rules.declaredName(field.name, in: .member)))
        }
        let access = generator.access
        let parameters = members.map { member -> String in
            let name = Self.rules.quoted(member.name)
            switch member.kind {
            case .required: return "\(name): \(names.inputType(member.field.type.schemaType))"
            case .absentOrValue, .absentNullOrValue:
                return "\(name): \(optionalType(member.field.type.schemaType)) = nil"
            }
        }
        return """
            \(DocComment.tripleSlash(model.documentation))
            \(access)\(generator.isolation)struct \(Self.rules.quoted(typeName)): Sendable {
                \(each: members, { propertyDeclaration($0) })

                \(access)init(\(joined: parameters, separator: ", ")) {
                    \(each: members, { member in
                        let name = Self.rules.quoted(member.name)
                        switch member.kind {
                        case .required, .absentOrValue: return "self.\(name) = \(name)"
                        case .absentNullOrValue: return "self.\(name) = Baton.GraphQLNullable(absentIfNil: \(name))"
                        }
                    })
                }

                /// The object as the request sends it: absent fields left out.
                \(access)var jsonValue: Baton.JSONValue {
                    var members: [(String, Baton.JSONValue)] = []
                    \(each: members, { encodeMember($0) })
                    return Baton.JSONValue.object(Baton.JSONObject(members))
                }
            }
            """
    }

    /// The parameter type for a field that may be left out: the value type made optional.
    private func optionalType(_ type: TypeRef) -> String {
        let plain = names.inputType(type.nullable)
        return plain.hasSuffix("?") ? plain : plain + "?"
    }

    private func propertyDeclaration(_ member: Member) -> Template {
        let name = Self.rules.quoted(member.name)
        let type: String
        switch member.kind {
        case .required: type = names.inputType(member.field.type.schemaType)
        case .absentOrValue: type = optionalType(member.field.type.schemaType)
        case .absentNullOrValue: type = "Baton.GraphQLNullable<\(nonNullType(member.field.type.schemaType))>"
        }
        return """
            \(DocComment.tripleSlash(member.field.documentation))
            \(ifLet: member.field.deprecation?.reason, { DocComment.tripleSlash("Deprecated: " + $0) })
            \(generator.access)var \(name): \(type)
            """
    }

    /// The Swift type of a value of `type` without its outer optionality.
    private func nonNullType(_ type: TypeRef) -> String {
        let plain = names.inputType(type.nullable)
        return plain.hasSuffix("?") ? String(plain.dropLast()) : plain
    }

    private func encodeMember(_ member: Member) -> Template {
        let name = Self.rules.quoted(member.name)
        let key = SwiftLiteral.string(member.field.name)
        let nonNull = member.field.type.nonOptional.schemaType
        switch member.kind {
        case .required:
            return
                "members.append((\(key), \(SwiftInputEncoding.encode(member.field.type.schemaType, "self.\(name)", names: names))))"
        case .absentOrValue:
            return
                "if let value = self.\(name) { members.append((\(key), \(SwiftInputEncoding.encode(nonNull, "value", names: names)))) }"
        case .absentNullOrValue:
            return """
                switch self.\(name) {
                case .absent: break
                case .null: members.append((\(key), Baton.JSONValue.null))
                case .value(let value): members.append((\(key), \(SwiftInputEncoding.encode(nonNull, "value", names: names))))
                }
                """
        }
    }

    private func renderOneOf() -> Template {
        var scope = NameScope(reserved: ["jsonValue"])
        let cases = model.fields.map { field in (field, scope.claim(Self.rules.declaredName(field.name, in: .enumCase)))
        }
        let access = generator.access
        return """
            \(DocComment.tripleSlash(model.documentation))
            /// Exactly one field is set (`@oneOf`).
            \(access)\(generator.isolation)indirect enum \(Self.rules.quoted(typeName)): Sendable {
                \(each: cases, { field, name in
                    """
                    \(DocComment.tripleSlash(field.documentation))
                    case \(Self.rules.quoted(name))(\(nonNullType(field.type.schemaType)))
                    """
                })

                /// The object as the request sends it: the one field that is set.
                \(access)var jsonValue: Baton.JSONValue {
                    switch self {
                    \(each: cases, { field, name in
                        let encoded = SwiftInputEncoding.encode(field.type.nonOptional.schemaType, "value", names: names)
                        return "case .\(Self.rules.quoted(name))(let value): Baton.JSONValue.object(Baton.JSONObject([(\(SwiftLiteral.string(field.name)), \(encoded))]))"
                    })
                    }
                }
            }
            """
    }
}
