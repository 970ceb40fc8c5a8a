import Testing
import TouchlineCalibration
import TouchlineCore
import TouchlineGestures

// What `touchline calibrate` writes: the udev rule (libinput's normalization), the [[device]]
// section (whose rotation and calibration are the fitted map, as DeviceTransform applies
// them), the xinput command; names that could break a rule, a TOML string or a shell word.

let screen = CalibratedDevice(name: "Touch \"Panel\" [x]*", vendor: 0x0eef, product: 0x0001, xSpan: 4095, ySpan: 4095, sensor: panel)

@Suite struct CalibrationOutputTests {
    /// The VM's case: rotated 90° and scaled 0.9 about the centre.
    func quarterScaled() throws -> Calibration {
        try Calibration.fit(touches(AffineMap(0.9, 0, 0.05, 0, 0.9, 0.05).after(Orientation.rotated90.map)), sensor: panel)
    }

    @Test func theUdevRuleSetsLibinputsMatrixOnTheEventNodeMatchedByIdsAndName() throws {
        let fit = try quarterScaled()
        #expect(fit.udevRule(screen) == """
            # Touch "Panel" [x]* (vendor 0x0eef, product 0x0001): rotated 90° clockwise, worst 0.0 mm over 9 points
            # Written by `touchline calibrate` (docs/calibrate.md). It sets libinput's calibration for
            # this device and for Touchline's pass-through clone of it (which keeps name and ids);
            # Touchline's evdev source reads the same property.
            # Install and apply:
            #   sudo install -m 644 THIS_FILE /etc/udev/rules.d/99-touchline-calibration.rules
            #   sudo udevadm control --reload
            #   sudo udevadm trigger --subsystem-match=input --action=change
            # libinput reads the property when it opens the device: restart the compositor (or
            # unplug and plug the device in) after the trigger.
            ACTION=="add|change", SUBSYSTEM=="input", KERNEL=="event*", ATTRS{id/vendor}=="0eef", \
            ATTRS{id/product}=="0001", ATTRS{name}=="Touch ?Panel? ?x??", \
            ENV{LIBINPUT_CALIBRATION_MATRIX}="0.000000 -0.900220 0.950000 0.900220 0.000000 0.050000"

            """)
    }

    /// libinput normalizes over max − min + 1 (evdev_device_calibrate, scale_axis): its matrix
    /// sends a raw coordinate where Touchline's sends it.
    @Test func libinputsMatrixAgreesWithTouchlinesOnRawCoordinates() throws {
        let fit = try quarterScaled()
        let libinput = fit.libinputMap(screen)
        for (x, y) in [(0.0, 0.0), (4095.0, 0.0), (1234.0, 3000.0), (4095.0, 4095.0)] {
            let ours = fit.map.apply(Point(x: x / 4095, y: y / 4095))
            let theirs = libinput.apply(Point(x: x / 4096, y: y / 4096))
            #expect(abs(ours.x - theirs.x) < 1e-12 && abs(ours.y - theirs.y) < 1e-12)
        }
    }

    @Test(arguments: Orientation.allCases)
    func theDeviceSectionsRotationAndCalibrationAreTheFittedMap(_ orientation: Orientation) throws {
        let truth = AffineMap(1.03, 0.01, -0.02, 0, 0.97, 0.015).after(orientation.map)
        let fit = try Calibration.fit(touches(truth), sensor: panel)
        let (rotation, calibration) = fit.deviceSettings
        #expect(rotation == orientation.rotation)
        let transform = try #require(DeviceTransform(rotation: rotation, calibration: calibration.numbers))
        #expect(close(AffineMap(transform.a, transform.b, transform.c, transform.d, transform.e, transform.f), truth, within: 1e-9))
        // The graph's surface has the screen's shape: swapped when the panel's axes are.
        #expect((transform.surface(panel) != panel) == orientation.swapsAxes)
    }

    @Test func theDeviceSectionIsTOMLTheSettingsReaderTakes() throws {
        let fit = try Calibration.fit(touches(Orientation.rotated180.map), sensor: panel)
        #expect(fit.deviceSection(screen) == """
            [[device]]
            match.name = "Touch \\"Panel\\" [x]*"
            rotation = 180
            calibration = [1.000000, 0.000000, 0.000000, 0.000000, 1.000000, 0.000000]

            """)
    }

    @Test func theXinputCommandIsTheXServersMatrixOnTheWholeScreen() throws {
        let fit = try Calibration.fit(touches(Orientation.invertedY.map), sensor: panel)
        let device = CalibratedDevice(name: "Bob's panel", vendor: 1, product: 2, xSpan: 100, ySpan: 100, sensor: panel)
        #expect(fit.xinputCommand(device)
            == "xinput set-prop 'Bob'\\''s panel' --type=float \"Coordinate Transformation Matrix\" 1.000000 0.000000 0.000000 0.000000 -1.000000 1.000000 0 0 1")
    }

    @Test func theReportNamesEachPointTheWorstAndAnOutlier() throws {
        var points = try touches(.identity)
        points[4].touched.x += 12 / panel.width
        let fit = try Calibration.fit(points, sensor: panel)
        let device = CalibratedDevice(name: "Panel", vendor: 0x1234, product: 0xabcd, xSpan: 4095, ySpan: 4095, sensor: panel)
        let report = fit.report(device, points: points, targets: [])
        let lines = report.split(separator: "\n").map(String.init)
        #expect(lines.first == "device: Panel (vendor 0x1234, product 0xabcd), panel 300.0 × 200.0 mm")
        #expect(lines[5] == "point 5: aimed at 0.500,0.500, touched 0.5400,0.5000 (normalized), off by 12.0 mm: far off the others, left out")
        #expect(lines.contains("outlier: point 5 is 12.0 mm off the fit of the others: left out; touch it again"))
        #expect(lines.contains("found: not rotated; the screen spans 300.0 × 200.0 mm of the panel"))
    }
}
