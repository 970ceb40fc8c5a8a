import Testing
import TouchlineCore
import TouchlineGestures
import TouchlineSettings

// What an `[[action]]` may filter on is known without an event (docs/live.md#actions): each
// kind names its fields types (`GestureRecognizer.eventFields`) and each type its keys
// (`GestureFields.fieldNames`). Both lists are declarations beside the code that writes the
// fields; here they are held to what the recordings' events really carry, every kind's.
@Suite struct FieldNamesTests {
    @Test(arguments: Golden.recordings)
    func everyEventsFieldsAreDeclaredByItsKind(recording: String) throws {
        let registry = RecognizerRegistry.standard
        for event in try Golden.events(recording) {
            let type = event.detail.fieldsType
            // A kind whose recognizer says several gestures (peek: pop) names each type.
            let owners = registry.kinds.filter { kind in kind.eventFields.contains { $0 == type } }
            #expect(!owners.isEmpty, "\(recording): \(event.gesture)'s fields \(type) are in no kind's eventFields")
            if let kind = registry.kind(named: event.gesture.description) {
                #expect(kind.eventFields.contains { $0 == type }, "\(recording): \(kind.gesture).eventFields lacks \(type)")
                #expect(kind.phases.contains(event.phase), "\(recording): a \(kind.gesture) event \(event.phase), declared \(kind.phases)")
            }
            var keys: [String] = []
            event.detail.forEachField { key, value in
                keys.append(key.description)
                // Each value of the sort its type declares (an action's filter takes that sort).
                let words = type.wordFieldNames.map(\.description), counts = type.countFieldNames.map(\.description)
                switch value {
                case .word, .name, .names: #expect(words.contains(key.description), "\(recording): \(type).\(key) is a word, not declared so")
                case .integer: #expect(counts.contains(key.description), "\(recording): \(type).\(key) is a count, not declared so")
                case .number, .duration: #expect(!words.contains(key.description) && !counts.contains(key.description), "\(recording): \(type).\(key) is a number")
                case .null, .text: break
                }
            }
            let declared = type.fieldNames.map(\.description)
            #expect(keys.allSatisfy(declared.contains), "\(recording): \(type) gives \(keys), declares \(declared)")
        }
    }

    /// Every kind of the table appears in some recording's events, so the test above saw each.
    @Test func theRecordingsCoverEveryKind() throws {
        var seen: Set<String> = []
        for recording in Golden.recordings {
            for event in try Golden.events(recording) {
                if let kind = RecognizerRegistry.standard.kinds.first(where: { kind in kind.eventFields.contains { $0 == event.detail.fieldsType } }) {
                    seen.insert(kind.gesture.description)
                }
            }
        }
        #expect(seen == Set(RecognizerRegistry.standard.kinds.map { $0.gesture.description }))
    }
}
