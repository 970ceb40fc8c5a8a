// `consume = true` on a [[recognizer]] (docs/config.md, docs/live.md#pass-through): read from
// a file, refused with its line when it is not a boolean, and refused from a socket client.
import Testing
import TouchlineCore
import TouchlineGestures
import TouchlineSettings

@Suite struct ConsumeConfigTests {
    @Test func consumeIsReadFromARecognizersTable() throws {
        let configuration = try GraphConfiguration.parse(toml: """
            [[recognizer]]
            kind = "edgeSwipe"
            consume = true

            [[recognizer]]
            kind = "tap"
            consume = false

            [[recognizer]]
            kind = "pan"
            """, file: "graph.toml")
        #expect(configuration.recognizers.map(\.consume) == [true, false, false])
        let graph = try GestureGraph(configuration: configuration, surface: Size(width: 200, height: 120))
        #expect(graph.consumingRecognizers == 0b1)
    }

    @Test func aConsumeThatIsNotABooleanIsNamedWithItsLine() {
        do {
            _ = try GraphConfiguration.parse(toml: "[[recognizer]]\nkind = \"edgeSwipe\"\nconsume = \"yes\"\n", file: "graph.toml")
            Issue.record("parsed")
        } catch {
            #expect(error.description.hasPrefix("graph.toml:3:11: found \"yes\" for consume; expected true or false"), "\(error)")
        }
    }

    /// A client of the socket must not keep other applications' touches from them.
    @Test func aRegisteredTargetsRecognizerTakesNoConsume() {
        let error = parseError(#"{"register": {"name": "zone", "rect": [0, 0, 1, 1], "recognizers": [{"kind": "tap", "consume": true}]}}"#)
        #expect(error?.hasPrefix("register: recognizers[0]: a registered target's recognizer takes no 'consume'") == true, "\(error ?? "no error")")
    }
}

@Suite struct PassThroughDeviceConfigTests {
    @Test func passthroughIsADevicesBoolean() throws {
        let configuration = try DaemonConfiguration.parse(bytes: Array("[[device]]\nmatch.name = \"*\"\npassthrough = true\n".utf8), file: "daemon.toml")
        #expect(configuration.devices.devices.map(\.passthrough) == [true])
        do {
            _ = try DaemonConfiguration.parse(bytes: Array("[[device]]\nmatch.name = \"*\"\npassthrough = \"yes\"\n".utf8), file: "daemon.toml")
            Issue.record("parsed")
        } catch {
            #expect(error.description.hasPrefix("daemon.toml:3:15: found \"yes\" for a device's passthrough; expected true or false"), "\(error)")
        }
    }
}
