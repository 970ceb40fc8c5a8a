// udev's database entries as `match.udev` reads them: only `E:` lines are properties.
import Testing
import TouchlineInput

@Suite struct UdevDatabaseTests {
    @Test func onlyEnvironmentLinesAreProperties() {
        let entry = "S:input/by-path/platform-i2c-event\nI:12345\nE:ID_INPUT=1\nE:ID_INPUT_TOUCHSCREEN=1\nE:ID_PATH=pci-0000:00:15.1=x\nG:seat\nE:\nE:BROKEN\n"
        #expect(UdevDatabase.parse(Array(entry.utf8)) == ["ID_INPUT": "1", "ID_INPUT_TOUCHSCREEN": "1", "ID_PATH": "pci-0000:00:15.1=x"])
    }

    @Test func aPathThatIsNotADeviceNodeHasNone() {
        #expect(UdevDatabase.properties(ofNode: "/etc/hostname") == nil)
        #expect(UdevDatabase.properties(ofNode: "/nonexistent/event0") == nil)
    }
}
