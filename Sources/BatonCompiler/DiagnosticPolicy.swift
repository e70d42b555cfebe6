import BatonConfig
import BatonDiagnostics

/// What a run does with diagnostics, decided in one place for every command: the project's
/// `rules` settings settle each diagnostic's severity as it is produced; `--warnings-as-errors`
/// makes the gate, the exit status and the report count warnings as errors (a configuration
/// warning so promoted is a problem found, exit 1, not a failure to run, exit 2); `--quiet` and
/// the PATHS filter decide only what is shown.
package struct DiagnosticPolicy: Sendable {
    /// `--warnings-as-errors`: every warning counts as an error, for the gate and the exit status.
    package var warningsAsErrors: Bool
    /// `--quiet`: show errors only.
    package var quiet: Bool

    package init(warningsAsErrors: Bool = false, quiet: Bool = false) {
        self.warningsAsErrors = warningsAsErrors
        self.quiet = quiet
    }

    /// `diagnostics` with the severities the project's `rules` give them (a rule turned off is
    /// dropped).
    package func settle(_ diagnostics: [Diagnostic], configuration: Configuration?) -> [Diagnostic] {
        configuration?.applyingRuleSettings(to: diagnostics) ?? diagnostics
    }

    /// Whether a settled diagnostic counts as an error: for the gate, the exit status and the report.
    package func isError(_ diagnostic: Diagnostic) -> Bool {
        diagnostic.severity == .error || (warningsAsErrors && diagnostic.severity == .warning)
    }

    /// What is shown of settled diagnostics: warnings as errors under `--warnings-as-errors`,
    /// then only errors under `--quiet`.
    package func shown(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        var shown = diagnostics
        if warningsAsErrors {
            for index in shown.indices where shown[index].severity == .warning { shown[index].severity = .error }
        }
        return quiet ? shown.filter { $0.severity == .error } : shown
    }
}
