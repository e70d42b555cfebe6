/// The settings from baton.json the lens model needs. The CLI fills it from the configuration,
/// so the model does not depend on the configuration's types.
package struct LensModelOptions: Sendable {
    /// `customScalarTypes`, by scalar name.
    package var customScalars: [String: CustomScalarMapping]
    /// `onError` (`PROPAGATE`, `NULL` or `HALT`), written into every operation when set.
    package var onError: String?
    /// `keyFields` from baton.json; with the schema's `@typePolicy(keyFields:)`, `RecordKeyPolicy`
    /// decides each type's key.
    package var keyFields: [KeyFieldsDeclaration] = []
    /// Names no generated definition may take in any target language (compared ignoring case):
    /// what the generated code and the runtimes declare or use unqualified at module level. The
    /// driver gathers them from every generation target, whichever are generated, so names do not
    /// depend on which languages a run writes.
    package var reservedTypeNames: Set<String>
    /// How definitions are named (`output.operationSuffix`, `output.swift.namespace`).
    package var naming: NamingOptions
    /// True for `check`, which needs of the plan only what can refuse: the builder makes every
    /// decision and diagnostic as for `gen`, but keeps no lenses (each definition's is released
    /// once built; a spread reads only its fragment's name, type condition and `rootCanBeNil`),
    /// prints no document texts (`documentText` and `operationID` are ""; a text can refuse only
    /// when its selections nest deeper than the printer's stack allows, and those are still
    /// printed), and skips what only outputs read (used types, naming, optimistic builders).
    package var checksOnly = false

    package init(
        customScalars: [String: CustomScalarMapping] = [:], onError: String? = nil,
        reservedTypeNames: Set<String> = [], naming: NamingOptions = NamingOptions()
    ) {
        self.customScalars = customScalars
        self.onError = onError
        self.reservedTypeNames = reservedTypeNames
        self.naming = naming
    }
}

/// The naming settings of baton.json, applied once by `DefinitionNaming` for every language.
package struct NamingOptions: Sendable, Hashable {
    /// Append the operation's kind to its type name (`query Feed` → `FeedQuery`, `mutation Like`
    /// → `LikeMutation`) unless the name already ends with it, as Apollo does.
    package var operationSuffix: Bool
    /// The namespace the schema's types (custom scalars, enums, input objects) are declared in,
    /// for a language that nests them (Swift: `enum API {}`); Kotlin's package is its namespace.
    package var schemaNamespace: String?

    package init(operationSuffix: Bool = false, schemaNamespace: String? = nil) {
        self.operationSuffix = operationSuffix
        self.schemaNamespace = schemaNamespace
    }
}

/// How a custom scalar reads in generated code: an app type per language. A mapped scalar is
/// converted from its text at the read; a text that does not convert reads nil (so the accessor
/// is optional unless `@required` or `@throwOnFieldError` says what a failure does).
package struct CustomScalarMapping: Sendable, Hashable {
    /// The Swift type (`Foundation.Date`), if mapped for Swift.
    package var swiftType: String?
    /// The Kotlin type (`java.time.Instant`), if mapped for Kotlin.
    package var kotlinType: String?
    /// The Kotlin converter object (`app.DateTimes`).
    package var kotlinConverter: String?

    package init(swiftType: String? = nil, kotlinType: String? = nil, kotlinConverter: String? = nil) {
        self.swiftType = swiftType
        self.kotlinType = kotlinType
        self.kotlinConverter = kotlinConverter
    }
}
