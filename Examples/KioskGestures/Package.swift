// swift-tools-version: 6.1
// An application embedding Touchline's recognizers, as an adopter's package would: it depends
// on the repository by path (an adopter names the repository's URL and a version instead) and
// on the pure products only, so it builds without libevdev or libinput.
import PackageDescription

let package = Package(
    name: "KioskGestures",
    dependencies: [
        .package(name: "Touchline", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "KioskGestures",
            dependencies: [
                .product(name: "TouchlineCore", package: "Touchline"),
                .product(name: "TouchlineGestures", package: "Touchline"),
                .product(name: "TouchlineTesting", package: "Touchline"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
