import BatonConfig
import BatonDiagnostics
import BatonIR
import BatonSchema

/// `key-fields`: every declared record key (`keyFields` in baton.json, Apollo's
/// `@typePolicy(keyFields:)` in the schema) names leaf fields the type has, and gives each object
/// type one key.
///
/// Baton: a key the runtimes cannot read would key records by something else without a word. The
/// decision is `RecordKeyPolicy`'s (BatonIR), made once per schema with the plan's other
/// schema-wide decisions (`PlanDecisions`) for `check`, the plan and both generators; this reports
/// its diagnostics, at the `baton.json` entry or the directive's argument.
package enum KeyFieldsRule {
    package static let descriptor = RuleDescriptor(
        id: RecordKeyPolicy.rule, title: "Record keys are leaf fields of their type.",
        summary:
            "Every keyFields declaration (baton.json or @typePolicy) names scalar or enum fields the type has, and each object type has one key.",
        origin: .baton)

    /// baton.json's `keyFields` as the policy's declarations.
    package static func declarations(_ configuration: Configuration?) -> [KeyFieldsDeclaration] {
        guard let configuration else { return [] }
        return configuration.keyFields.map { setting in
            KeyFieldsDeclaration(
                typeName: setting.typeName, fields: setting.fields.map(\.value), origin: .configuration,
                range: configuration.range(setting.span), typeRange: configuration.range(setting.typeSpan))
        }
    }

    /// The decision's diagnostics; `decisions` are made with `declarations` (`Compilation.modelOptions`).
    package static func check(_ decisions: PlanDecisions) -> [Diagnostic] {
        decisions.keyDiagnostics
    }
}
