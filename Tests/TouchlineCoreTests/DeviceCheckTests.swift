// Device descriptions that cannot be believed get a warning and the fallback that
// docs/frame-assembly.md ("Device descriptions") documents; none crashes, none gives a silent
// wrong size. On 532b116 each case below was accepted without a word.
import Testing
@testable import TouchlineCore

@Suite struct DeviceCheckTests {
    /// Devices.slotted() (100 × 50 mm at 10 units/mm) with one axis replaced.
    static func slotted(_ code: UInt16, _ info: AbsInfo, duplicates: [UInt16] = []) -> DeviceDescription {
        var d = Devices.slotted()
        d.absinfo[code] = info
        d.duplicateAbsinfo = duplicates
        return d
    }

    static func touch(_ x: Int32, _ y: Int32) -> [InputEvent] {
        Script().slot(0).track(1).at(x, y).syn(at: 0.010).lift().syn(at: 0.020).events
    }

    @Test func minimumAboveMaximumIsSwapped() throws {
        var a = FrameAssembler(device: Self.slotted(E.ABS_MT_POSITION_X, AbsInfo(minimum: 1000, maximum: 0, resolution: 10)))
        #expect(a.warnings == ["ABS_MT_POSITION_X has minimum 1000 > maximum 0; reading it as 0..1000"])
        #expect(a.geometry.size == Size(width: 100, height: 50))
        let frames = run(Self.touch(250, 250), into: &a)
        try #require(frames.count == 2)
        #expect(frames[0].contacts[0].position == Point(x: 25, y: 25))
    }

    @Test func zeroWidthPositionAxisTakesTheOtherAxis() throws {
        var a = FrameAssembler(device: Self.slotted(E.ABS_MT_POSITION_Y, AbsInfo(minimum: 7, maximum: 7)))
        #expect(a.warnings == ["ABS_MT_POSITION_Y has zero width (7..7); assuming it spans what ABS_MT_POSITION_X does (0..1000)"])
        #expect(a.geometry.size == Size(width: 100, height: 100))
        let frames = run(Self.touch(500, 300), into: &a)
        try #require(frames.count == 2)
        #expect(frames[0].contacts[0].position == Point(x: 50, y: 30))
    }

    @Test func bothPositionAxesOfZeroWidthWarnAndDoNotCrash() {
        var d = Self.slotted(E.ABS_MT_POSITION_X, AbsInfo(minimum: 0, maximum: 0))
        d.absinfo[E.ABS_MT_POSITION_Y] = AbsInfo(minimum: 0, maximum: 0)
        var a = FrameAssembler(device: d)
        #expect(a.warnings.first?.contains("both have zero width") == true)
        #expect(a.geometry.source == .assumed)
        #expect(run(Self.touch(5, 5), into: &a).count == 2)
    }

    @Test func zeroWidthPressureIsIgnored() throws {
        var a = FrameAssembler(device: Self.slotted(E.ABS_MT_PRESSURE, AbsInfo(minimum: 50, maximum: 50)))
        #expect(a.warnings == ["ABS_MT_PRESSURE has zero width (50..50); pressure is ignored"])
        let frames = run(Script().slot(0).track(1).at(10, 10).pressure(50).syn(at: 0.01).events, into: &a)
        try #require(frames.count == 1)
        #expect(frames[0].contacts[0].pressure == nil)
    }

    @Test func duplicateAbsinfoWarnsOncePerAxis() {
        let a = FrameAssembler(device: Self.slotted(
            E.ABS_MT_POSITION_X, AbsInfo(minimum: 0, maximum: 2000, resolution: 20),
            duplicates: [E.ABS_MT_POSITION_X, E.ABS_MT_POSITION_X]))
        #expect(a.warnings == ["ABS_MT_POSITION_X is described more than once; using the last description (0..2000)"])
        #expect(a.geometry.size == Size(width: 100, height: 50))
    }

    /// A real capacitive panel: 0..32767 on both axes, resolutions 1 and 3 units/mm, which would
    /// make it 32.8 m × 10.9 m.
    @Test func implausibleSizeFromResolutionFallsBackToTheAssumedDiagonal() throws {
        var d = Self.slotted(E.ABS_MT_POSITION_X, AbsInfo(minimum: 0, maximum: 32767, resolution: 1))
        d.absinfo[E.ABS_MT_POSITION_Y] = AbsInfo(minimum: 0, maximum: 32767, resolution: 3)
        let a = FrameAssembler(device: d)
        #expect(a.geometry.source == .assumed)
        let size = a.geometry.size
        #expect(abs((size.width * size.width + size.height * size.height).squareRoot() - SurfaceGeometry.fallbackDiagonal.value) < 0.001)
        #expect(a.warnings == [
            "the device's resolution (x 1, y 3 units/mm) gives 32767.0 × 10922.3 mm, not a plausible sensor (20 mm to 3 m across); assuming a 10.1\" diagonal (181.4 × 181.4 mm); pass --size WxH in mm for real distances",
        ])
    }

    @Test(arguments: [(Int32(0), Int32(100), Int32(10)), (0, 10, 1)] as [(Int32, Int32, Int32)])
    func tinySensorsAreNotBelieved(minimum: Int32, maximum: Int32, resolution: Int32) {
        var d = Self.slotted(E.ABS_MT_POSITION_X, AbsInfo(minimum: minimum, maximum: maximum, resolution: resolution))
        d.absinfo[E.ABS_MT_POSITION_Y] = AbsInfo(minimum: minimum, maximum: maximum, resolution: resolution)
        let a = FrameAssembler(device: d)
        #expect(a.geometry.source == .assumed)
        #expect(a.warnings.count == 1)
    }

    @Test func userSizeOverridingARealResolutionSaysBothSizes() {
        let a = FrameAssembler(device: Devices.slotted(), options: .init(userSize: Size(width: 200, height: 80)))
        #expect(a.geometry.source == .userSize)
        #expect(a.geometry.size == Size(width: 200, height: 80))
        #expect(a.warnings == ["--size 200.0 × 80.0 mm overrides the size from the device's resolution (100.0 × 50.0 mm)"])
    }

    @Test func aSoundDeviceHasNoWarning() {
        #expect(FrameAssembler(device: Devices.slotted()).warnings.isEmpty)
    }
}
