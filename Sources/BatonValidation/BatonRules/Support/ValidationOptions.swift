/// A language Baton generates code for (`output` in baton.json).
package enum CodegenLanguage: String, Sendable, Hashable, CaseIterable, Comparable {
    case swift
    case kotlin

    /// The language's name in messages.
    package var displayName: String {
        switch self {
        case .swift: "Swift"
        case .kotlin: "Kotlin"
        }
    }

    package static func < (lhs: CodegenLanguage, rhs: CodegenLanguage) -> Bool {
        allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
    }
}

/// What a project adds to schema and documents for validation: the settings of baton.json that
/// some of Baton's rules read. `baton check` fills it; a plain spec validation passes none.
package struct ValidationOptions: Sendable {
    /// `customScalarTypes`: for each scalar named there, the languages it is mapped for.
    package var scalarMappings: [String: Set<CodegenLanguage>]
    /// The languages `output` generates.
    package var outputLanguages: Set<CodegenLanguage>

    package init(scalarMappings: [String: Set<CodegenLanguage>] = [:], outputLanguages: Set<CodegenLanguage> = []) {
        self.scalarMappings = scalarMappings
        self.outputLanguages = outputLanguages
    }
}
