import Baton
import SwiftUI

/// A character's profile: the guide's Plate 3 in a view. The server reports errors for image, location.name and
/// gender; the query reads those fields through `@catch`, so each row shows its error where it occurred, and the
/// rest of the profile shows as usual.
///
/// This example keeps its GraphQL in `Queries/*.graphql` (`baton.json` reads no Swift), so the wrapper takes the
/// generated text instead of a literal, and the app makes the view with its variables:
/// `ProfileScreen(profile: Query(TestProfileQuery(id: "1")))`.
struct ProfileScreen: View {
    @Query(TestProfileQuery.document) var profile: TestProfileQuery

    var body: some View {
        switch profile.phase {
        case .ready(let data):
            if let character = data.character {
                List {
                    Text(character.name ?? "Unnamed").font(.headline)
                    if profile.isStale { Text("Refreshing…") }
                    FieldRow(label: "Image", value: character.image)
                    FieldRow(label: "Gender", value: character.gender)
                    FieldRow(label: "Location", value: character.location?.name ?? .success(nil))
                    if let dimension = character.location?.dimension { Text("Dimension: \(dimension)") }
                }
            } else {
                Text("No such character")
            }
        case .loading:
            ProgressView()
        case .failed(let error):
            Text("Could not load the profile: \(error.description)")
        }
    }
}

/// One field read through `@catch`: its value, or the error the server reported for it.
struct FieldRow: View {
    let label: String
    let value: Result<String?, FieldErrors>

    var body: some View {
        switch value {
        case .success(let text?): Text("\(label): \(text)")
        case .success(nil): Text("\(label): none")
        case .failure(let errors): Text("\(label) unavailable: \(errors.description)")
        }
    }
}
