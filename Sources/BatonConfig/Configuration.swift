import BatonDiagnostics

/// A value read from `baton.json` with the span of its text, so later stages (a schema file
/// that is missing, a scalar mapping the schema lacks) can point back at it.
package struct Located<Value: Sendable>: Sendable {
    package var value: Value
    package var span: Span
    package init(_ value: Value, span: Span) {
        self.value = value
        self.span = span
    }
}

/// One project's `baton.json`: where the schema and documents are, how custom scalars map,
/// where generated code goes, and per-rule severities.
///
/// Every path is absolute, resolved against the directory of the file. Values keep their
/// spans in `file`, so any problem found later is reported at its place in `baton.json`.
package struct Configuration: Sendable {
    /// The `baton.json` text (diagnostics about the configuration point into it).
    package var file: SourceFile
    /// The absolute path of the file.
    package var path: String
    /// The absolute directory of the file: relative paths in it resolve against this.
    package var directory: String
    /// The working directory paths are shown relative to.
    package var workingDirectory: String
    /// `schema`: SDL files (`.graphql`, `.graphqls`) or an introspection result (`.json`).
    /// A pattern with wildcards stands for every file it matches.
    package var schema: [Located<GlobPattern>]
    /// `documents`: patterns of `.graphql`/`.gql` files and Swift sources holding GraphQL.
    package var documents: [Located<GlobPattern>]
    /// Whether `documents` was written (otherwise the defaults apply).
    package var documentsSpan: Span?
    /// `exclude`: patterns of files (or folders) that are never documents.
    package var exclude: [Located<GlobPattern>]
    /// `customScalarTypes`, in the order written.
    package var customScalarTypes: [CustomScalarType]
    /// `keyFields`: the fields that key each type's records, in the order written.
    package var keyFields: [KeyFieldsSetting] = []
    /// `onError`, written into every operation.
    package var onError: Located<ErrorBehavior>?
    /// `output`.
    package var output: OutputSettings
    /// `rules`: severity overrides by rule id, in the order written.
    package var rules: [RuleSetting]

    /// The documents searched when `documents` is not given, relative to the file.
    package static let defaultDocumentPatterns = ["**/*.graphql", "**/*.gql", "**/*.swift"]

    /// The severity setting for a rule id, if `rules` names it.
    package func ruleSetting(for rule: String) -> RuleSeverity? {
        rules.last { $0.rule == rule }?.severity
    }

    /// Applies `rules` to diagnostics: changes the severity of the named rules and drops those
    /// turned off. Diagnostics of other rules pass unchanged.
    package func applyingRuleSettings(to diagnostics: [Diagnostic]) -> [Diagnostic] {
        if rules.isEmpty { return diagnostics }
        var settings: [String: RuleSeverity] = [:]
        for setting in rules { settings[setting.rule] = setting.severity }
        return diagnostics.compactMap { diagnostic in
            guard let setting = settings[diagnostic.rule] else { return diagnostic }
            var changed = diagnostic
            switch setting {
            case .off: return nil
            case .warning: changed.severity = .warning
            case .error: changed.severity = .error
            }
            return changed
        }
    }

    /// The span of a key's value in the file, for diagnostics about it.
    package func range(_ span: Span) -> SourceRange { SourceRange(file: file, span: span) }
}

/// How a custom scalar reads in generated code (`customScalarTypes` entry).
package struct CustomScalarType: Sendable {
    /// The GraphQL scalar's name, and the span of the key.
    package var name: String
    package var nameSpan: Span
    /// The Swift type (`Foundation.Date`), if mapped for Swift.
    package var swift: Located<String>?
    /// The Kotlin type and its converter object, if mapped for Kotlin.
    package var kotlin: KotlinScalarType?
}

/// A `keyFields` entry: the fields that key a type's records in both runtimes' stores.
package struct KeyFieldsSetting: Sendable {
    package var typeName: String
    package var typeSpan: Span
    package var fields: [Located<String>]
    /// The list's span.
    package var span: Span
}

/// A Kotlin mapping: the type and the object converting it from and to the scalar's text.
package struct KotlinScalarType: Sendable {
    package var type: Located<String>
    package var converter: Located<String>
}

/// The `onError` behaviour the runtime asks the server for.
package enum ErrorBehavior: String, Sendable, CaseIterable {
    case propagate = "PROPAGATE"
    case null = "NULL"
    case halt = "HALT"
}

/// `output`: where each generator writes, and how generated code fits an app.
package struct OutputSettings: Sendable {
    /// `output.swift.path`, absolute.
    package var swiftPath: Located<String>?
    /// `output.swift.accessModifier`: the access of every generated Swift declaration (`internal` when absent).
    package var swiftAccessModifier: Located<SwiftAccessModifier>?
    /// `output.swift.namespace`: the Swift enum the schema's types (enums, input objects) are declared in.
    package var swiftNamespace: Located<String>?
    /// `output.swift.testBuilders.path`, absolute: where the Swift test data builders go (a test target's folder).
    package var swiftTestBuilders: Located<String>?
    /// `output.kotlin.path`, absolute.
    package var kotlinPath: Located<String>?
    /// `output.kotlin.package`, a dotted Kotlin package name.
    package var kotlinPackage: Located<String>?
    /// `output.kotlin.runtime`: where the Kotlin runtime is written (the output folder when absent).
    package var kotlinRuntime: KotlinRuntimeSetting?
    /// `output.kotlin.testBuilders.path`, absolute: where the Kotlin test data builders go (a test source set).
    package var kotlinTestBuilders: Located<String>?
    /// `output.operationSuffix`: whether operation types are named with their kind appended
    /// (`query Feed` → `FeedQuery`), in both languages. Off when absent.
    package var operationSuffix: Located<Bool>?
    /// `output.persistedQueries.path`, absolute: the persisted-query manifest's file.
    package var persistedQueriesPath: Located<String>?
    package init() {}
}

/// `output.swift.accessModifier`: how visible generated Swift is. `public` and `package` let the
/// generated code live in a module of its own that the app imports.
package enum SwiftAccessModifier: String, Sendable, CaseIterable {
    case `internal`
    case `public`
    case `package`
}

/// `output.kotlin.runtime`: where `baton gen` writes the Kotlin runtime (package `baton.runtime`).
package enum KotlinRuntimeSetting: Sendable {
    /// A folder (absolute) that receives `baton/runtime/*.kt`; projects naming the same folder share one copy.
    case folder(Located<String>)
    /// `false`: not written; another module of the app (or `--kotlin-runtime-out`) provides it.
    case omitted(Span)
}

/// A severity a rule can be set to.
package enum RuleSeverity: String, Sendable, CaseIterable {
    case error
    case warning
    case off
}

/// One `rules` entry.
package struct RuleSetting: Sendable {
    package var rule: String
    package var ruleSpan: Span
    package var severity: RuleSeverity
}
