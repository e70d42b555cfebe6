/// The rule ids the SDL rules (graphql-js's `specifiedSDLRules`) give schema diagnostics, for
/// `baton.json`'s `rules` and the rule catalog. (`validateSchema`'s checks carry the category
/// `schema`, which `rules` cannot change.)
package enum SchemaRuleIDs {
    package static var sdlRules: Set<String> { Set(SDLRules.all.map { $0.id }) }
}
