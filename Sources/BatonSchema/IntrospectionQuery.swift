/// The introspection query `baton fetch-schema` sends: the current spec's, asking for everything the
/// introspection builder reads — the schema's description, `isRepeatable` directives, `specifiedByURL`,
/// `isOneOf`, and deprecated arguments, input fields, fields and enum values (`includeDeprecated: true`
/// everywhere), with type references nine levels deep (graphql-js's depth).
///
/// Servers of the GraphQL spec's 2021 edition (graphql-js 16, graphql-core 3.2) have no `__Type.isOneOf`: the
/// variant without it is for them (`fetch-schema` sends it when the first answer names `isOneOf`).
package enum IntrospectionQuery {
    package static func text(includingOneOf: Bool = true) -> String {
        let typeReference = (0..<8).reduce("kind name") { inner, _ in "kind name ofType { \(inner) }" }
        return """
            query IntrospectionQuery {
              __schema {
                description
                queryType { name kind }
                mutationType { name kind }
                subscriptionType { name kind }
                types { ...FullType }
                directives {
                  name
                  description
                  isRepeatable
                  locations
                  args(includeDeprecated: true) { ...InputValue }
                }
              }
            }

            fragment FullType on __Type {
              kind
              name
              description
              specifiedByURL
              \(includingOneOf ? "isOneOf" : "")
              fields(includeDeprecated: true) {
                name
                description
                args(includeDeprecated: true) { ...InputValue }
                type { ...TypeRef }
                isDeprecated
                deprecationReason
              }
              inputFields(includeDeprecated: true) { ...InputValue }
              interfaces { ...TypeRef }
              enumValues(includeDeprecated: true) { name description isDeprecated deprecationReason }
              possibleTypes { ...TypeRef }
            }

            fragment InputValue on __InputValue {
              name
              description
              type { ...TypeRef }
              defaultValue
              isDeprecated
              deprecationReason
            }

            fragment TypeRef on __Type { \(typeReference) }
            """
    }
}
