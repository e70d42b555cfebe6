import BatonDiagnostics
import BatonSyntax

/// The definitions every schema has without declaring them: the built-in scalars, the
/// introspection types, the spec's directives and Baton's own directives.
///
/// They are written as SDL (easy to read against the spec) and built once, on first use, by
/// the same code that builds user SDL; built-ins carry no source location.
package enum BuiltIns {
    /// `Int Float String Boolean ID`.
    package static let scalarNames: [String] = ["Int", "Float", "String", "Boolean", "ID"]
    /// The introspection types, in graphql-js's order.
    package static let introspectionTypeNames: [String] = [
        "__Schema", "__Directive", "__DirectiveLocation", "__Type", "__Field", "__InputValue", "__EnumValue",
        "__TypeKind",
    ]
    /// graphql-js's `standardTypeNames`: names an SDL document may use without defining them.
    package static let standardTypeNames: [String] = scalarNames + introspectionTypeNames
    package static let standardTypeNameSet: Set<String> = Set(standardTypeNames)

    /// The spec's directives (graphql-js 16's `specifiedDirectives` plus `@oneOf`).
    package static let specifiedDirectiveNames: [String] = ["include", "skip", "deprecated", "specifiedBy", "oneOf"]
    /// Baton's own directives, known to every schema that does not declare them itself.
    package static let batonDirectiveNames: [String] = [
        "required", "catch", "throwOnFieldError", "semanticNonNull", "connection", "appendEdge", "prependEdge",
        "appendNode", "prependNode", "deleteRecord", "deleteEdge", "refetchable",
    ]
    /// Apollo's client directives (Apollo Kotlin's and Apollo iOS's cache and codegen directives),
    /// known to every schema that does not declare them, so that Apollo projects' schema extensions
    /// and documents load: Baton does not act on them, and says so (`apollo-client-directives`).
    /// Apollo's `@catch` and `@semanticNonNull` are not here (Baton's own are), nor `@defer` (not supported).
    package static let apolloDirectiveNames: [String] = [
        "typePolicy", "fieldPolicy", "nonnull", "optional", "link", "targetName", "import",
        "apollo_client_ios_localCacheMutation",
    ]
    /// The directives every schema knows without declaring them: the spec's, Baton's, Apollo's.
    package static let knownDirectiveNames: [String] =
        specifiedDirectiveNames + batonDirectiveNames + apolloDirectiveNames

    /// What Baton does with each of Apollo's client directives, for the warning at its uses.
    /// `@typePolicy` is not here: Baton reads its `keyFields` (`RecordKeyPolicy`), so it is not warned about.
    package static let apolloDirectiveMeaning: [String: String] = [
        "fieldPolicy":
            "Baton does not answer a field from another record's cache by its arguments: the query fetches it",
        "nonnull":
            "Baton takes nullability from the schema; `@required(action:)` on a field makes it non-null in generated code",
        "optional":
            "Baton generates a nullable variable as optional already",
        "link": "Baton reads no linked specification: the directives named in `import` are known by name",
        "targetName": "Baton names generated types after the schema's names",
        "import": "Baton generates one module's code: nothing is imported",
        "apollo_client_ios_localCacheMutation":
            "Baton writes the store through responses, optimistic responses and the store's own API",
    ]

    /// The enum types Baton's directives take as arguments.
    package static let batonTypeNames: [String] = ["RequiredFieldAction", "CatchFieldTo"]

    /// The default `reason` of `@deprecated`.
    package static let defaultDeprecationReason = "No longer supported"

    /// The built definitions, by name.
    package struct Definitions: Sendable {
        package var types: [String: NamedTypeDef] = [:]
        package var directives: [String: DirectiveDef] = [:]
    }

    /// Built on first use from `sdl`.
    package static let definitions: Definitions = {
        let source = SourceFile(path: "<built-in>", text: sdl)
        guard let document = Parser.parse(source).document else { return Definitions() }
        var result = Definitions()
        let converter = SDLConverter(keepLocations: false)
        for definition in document.definitions {
            if case .directive(let node) = definition {
                let directive = converter.directive(node, file: source)
                result.directives[directive.name] = directive
            } else if let type = converter.namedType(definition, extensions: [], file: source) {
                result.types[type.name] = type
            }
        }
        return result
    }()

    /// True for the built-in scalars and the introspection types.
    package static func isStandardType(_ name: String) -> Bool { standardTypeNameSet.contains(name) }
    package static func isIntrospectionType(_ name: String) -> Bool {
        name.hasPrefix("__") && introspectionTypeNames.contains(name)
    }

    static let sdl = #"""
        "The `Int` scalar type represents non-fractional signed whole numeric values. Int can represent values between -(2^31) and 2^31 - 1."
        scalar Int
        "The `Float` scalar type represents signed double-precision fractional values as specified by [IEEE 754](https://en.wikipedia.org/wiki/IEEE_floating_point)."
        scalar Float
        "The `String` scalar type represents textual data, represented as UTF-8 character sequences. The String type is most often used by GraphQL to represent free-form human-readable text."
        scalar String
        "The `Boolean` scalar type represents `true` or `false`."
        scalar Boolean
        "The `ID` scalar type represents a unique identifier, often used to refetch an object or as key for a cache. The ID type appears in a JSON response as a String; however, it is not intended to be human-readable. When expected as an input type, any string (such as `\"4\"`) or integer (such as `4`) input value will be accepted as an ID."
        scalar ID

        "Directs the executor to include this field or fragment only when the `if` argument is true."
        directive @include("Included when true." if: Boolean!) on FIELD | FRAGMENT_SPREAD | INLINE_FRAGMENT
        "Directs the executor to skip this field or fragment when the `if` argument is true."
        directive @skip("Skipped when true." if: Boolean!) on FIELD | FRAGMENT_SPREAD | INLINE_FRAGMENT
        "Marks an element of a GraphQL schema as no longer supported."
        directive @deprecated(reason: String = "No longer supported") on FIELD_DEFINITION | ARGUMENT_DEFINITION | INPUT_FIELD_DEFINITION | ENUM_VALUE
        "Exposes a URL that specifies the behavior of this scalar."
        directive @specifiedBy("The URL that specifies the behavior of this scalar." url: String!) on SCALAR
        "Indicates exactly one field must be supplied and this field must not be `null`."
        directive @oneOf on INPUT_OBJECT

        "Baton: what a null in a field the product requires does: bubble up (NONE), log and bubble up (LOG), or fail the read (THROW)."
        directive @required(action: RequiredFieldAction!) on FIELD
        enum RequiredFieldAction { NONE LOG THROW }
        "Baton: read a field's errors as a value (RESULT) or as null (NULL) instead of propagating them."
        directive @catch(to: CatchFieldTo! = RESULT) on FIELD | FRAGMENT_DEFINITION | QUERY | MUTATION
        enum CatchFieldTo { RESULT NULL }
        "Baton: an uncaught field error inside fails the read."
        directive @throwOnFieldError on QUERY | FRAGMENT_DEFINITION
        "Baton (semantic nullability): the listed levels of the field's type are null only on error."
        directive @semanticNonNull(levels: [Int!]! = [0]) on FIELD_DEFINITION
        "Baton (Relay connections): the field's edges are kept in one connection record per key and filter values, whatever the paging arguments."
        directive @connection(key: String!, filters: [String!]) on FIELD
        "Baton: the edge the response returns joins the end of each connection."
        directive @appendEdge(connections: [ID!]!) on FIELD
        "Baton: the edge the response returns joins the start of each connection."
        directive @prependEdge(connections: [ID!]!) on FIELD
        "Baton: an edge of `edgeTypeName` holding the node the response returns joins the end of each connection."
        directive @appendNode(connections: [ID!]!, edgeTypeName: String!) on FIELD
        "Baton: an edge of `edgeTypeName` holding the node the response returns joins the start of each connection."
        directive @prependNode(connections: [ID!]!, edgeTypeName: String!) on FIELD
        "Baton: the record with the ID the response returns (of `typeName`, or of any type) is deleted from the store."
        directive @deleteRecord(typeName: String) on FIELD
        "Baton: edges whose node has the ID the response returns leave each connection."
        directive @deleteEdge(connections: [ID!]!) on FIELD
        "Baton: the fragment can be fetched again, and its connection paged, by a generated query named `queryName`."
        directive @refetchable(queryName: String!) on FRAGMENT_DEFINITION

        "Apollo's cache key: `keyFields` keys the type's records in Baton's stores too (RecordKeyPolicy); `embeddedFields` and `connectionFields` are not read."
        directive @typePolicy(keyFields: String! = "", embeddedFields: String = "", connectionFields: String = "") on OBJECT | INTERFACE | UNION
        "Apollo (not used by Baton): a field answered from the cache by its arguments."
        directive @fieldPolicy(forField: String!, keyArgs: String = "", paginationArgs: String = "") repeatable on OBJECT | INTERFACE
        "Apollo Kotlin (not used by Baton): fields generated as non-null."
        directive @nonnull(fields: String! = "") on OBJECT | INTERFACE | FIELD
        "Apollo Kotlin (not used by Baton): variables generated as optional."
        directive @optional(if: Boolean = true) on QUERY | MUTATION | SUBSCRIPTION | VARIABLE_DEFINITION
        "Apollo (not used by Baton): a linked specification and the names it imports."
        directive @link(url: String!, as: String, import: [String], for: String) repeatable on SCHEMA
        "Apollo Kotlin (not used by Baton): the generated name of a type or value."
        directive @targetName(name: String!) on OBJECT | INTERFACE | ENUM | ENUM_VALUE | UNION | SCALAR | INPUT_OBJECT
        "Apollo iOS (not used by Baton): a module the generated code imports."
        directive @import(module: String!) repeatable on QUERY | MUTATION | SUBSCRIPTION | FRAGMENT_DEFINITION
        "Apollo iOS (not used by Baton): an operation that edits the local cache."
        directive @apollo_client_ios_localCacheMutation on QUERY | MUTATION | SUBSCRIPTION | FRAGMENT_DEFINITION

        type __Schema {
          description: String
          types: [__Type!]!
          queryType: __Type!
          mutationType: __Type
          subscriptionType: __Type
          directives: [__Directive!]!
        }
        type __Type {
          kind: __TypeKind!
          name: String
          description: String
          specifiedByURL: String
          fields(includeDeprecated: Boolean = false): [__Field!]
          interfaces: [__Type!]
          possibleTypes: [__Type!]
          enumValues(includeDeprecated: Boolean = false): [__EnumValue!]
          inputFields(includeDeprecated: Boolean = false): [__InputValue!]
          ofType: __Type
          isOneOf: Boolean
        }
        enum __TypeKind { SCALAR OBJECT INTERFACE UNION ENUM INPUT_OBJECT LIST NON_NULL }
        type __Field {
          name: String!
          description: String
          args(includeDeprecated: Boolean = false): [__InputValue!]!
          type: __Type!
          isDeprecated: Boolean!
          deprecationReason: String
        }
        type __InputValue {
          name: String!
          description: String
          type: __Type!
          "A GraphQL-formatted string representing the default value for this input value."
          defaultValue: String
          isDeprecated: Boolean!
          deprecationReason: String
        }
        type __EnumValue {
          name: String!
          description: String
          isDeprecated: Boolean!
          deprecationReason: String
        }
        type __Directive {
          name: String!
          description: String
          isRepeatable: Boolean!
          locations: [__DirectiveLocation!]!
          args(includeDeprecated: Boolean = false): [__InputValue!]!
        }
        enum __DirectiveLocation {
          QUERY MUTATION SUBSCRIPTION FIELD FRAGMENT_DEFINITION FRAGMENT_SPREAD INLINE_FRAGMENT VARIABLE_DEFINITION
          SCHEMA SCALAR OBJECT FIELD_DEFINITION ARGUMENT_DEFINITION INTERFACE UNION ENUM ENUM_VALUE INPUT_OBJECT
          INPUT_FIELD_DEFINITION
        }
        """#
}
