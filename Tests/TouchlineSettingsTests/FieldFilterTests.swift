import Testing
import TouchlineCore
import TouchlineGestures
import TouchlineSettings

/// A filter (an action's, a label's) compares a field as the event's JSON writes it: a pinch's
/// scale 0.70004 is printed 0.7000, and `<= 0.7` holds; the magnitude operators.
struct FieldFilterTests {
    func pinch(scale: Double) -> GestureEvent {
        GestureEvent(
            seq: 0, time: .zero, device: 0, gesture: .pinch, phase: .changed, target: "surface", recognizer: "pinch", fingers: 2,
            position: Point(x: 0, y: 0), contacts: ContactList(), detail: GestureDetail(PinchFields(scale: scale, velocity: 0, span: 30)))
    }

    @Test func aNumberComparesAsItIsPrinted() {
        let event = pinch(scale: 0.70004)
        #expect(event.json.contains(#""scale":0.7000"#))
        #expect(FieldFilter("scale", .lessOrEqual, .number(0.7)).holds(for: event))
        #expect(!FieldFilter("scale", .less, .number(0.7)).holds(for: event))
        #expect(FieldFilter("scale", .equal, .number(0.7)).holds(for: event))
    }

    @Test func magnitudes() {
        let closing = pinch(scale: -1.5)
        #expect(FieldFilter("scale", .absGreaterOrEqual, .number(1.5)).holds(for: closing))
        #expect(!FieldFilter("scale", .greaterOrEqual, .number(1.5)).holds(for: closing))
        #expect(FieldFilter("scale", .absLessOrEqual, .number(1.5)).holds(for: closing))
        #expect(!FieldFilter("scale", .absLessOrEqual, .number(1.4)).holds(for: closing))
        #expect(!FieldFilter("scale", .absGreaterOrEqual, .word("x")).holds(for: closing))
    }
}
