import Testing
@testable import TouchlineLive

/// Numbers in a client's message as JSONReader hands them: a whole number of 18 digits is read
/// exactly (and, past the largest device number, named exactly in its error), one past 64 bits
/// is a number that is no device, one past Double's range not JSON.
@Suite struct SocketNumberTests {
    func parse(_ line: String) -> Result<ClientMessage, ClientMessageError> {
        ClientMessageParser.parse(Array(line.utf8)[...])
    }

    @Test func largeDeviceNumbersStayExact() {
        #expect(parse(#"{"subscribe": {"devices": [999999, 0]}}"#)
            == .success(.subscribe(SubscriptionFilter(devices: [999_999, 0]))))
        // Issue 24, item 11: no device the daemon will have, so not echoed back as one.
        #expect(parse(#"{"subscribe": {"devices": [900000000000000001, 0]}}"#)
            == .failure(ClientMessageError(#"subscribe.devices[0]: expected a device number from 0 to 999999 (as events' "device"), found 900000000000000001"#)))
    }

    @Test func numbersThatAreNoDeviceAreNamed() {
        #expect(parse(#"{"subscribe": {"devices": [99999999999999999999]}}"#)
            == .failure(ClientMessageError(#"subscribe.devices[0]: expected a device number (0, 1, …, as events' "device"), found the number 1e+20"#)))
        #expect(parse(#"{"subscribe": {"devices": [1e3]}}"#)
            == .failure(ClientMessageError(#"subscribe.devices[0]: expected a device number (0, 1, …, as events' "device"), found the number 1000.0"#)))
        #expect(parse(#"{"subscribe": {"devices": [1e400]}}"#)
            == .failure(ClientMessageError(#"not JSON (a number out of range at column 28): found "{\"subscribe\": {\"devices\": [1e400]}}"; expected one JSON object per line, such as {"subscribe": ["tap"]}"#)))
    }
}
