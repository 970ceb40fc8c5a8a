// A quantity written with its unit ("300ms", "1cm", "0.5rad") in a parameter's unit: the
// settings read parameters with it, and `tune` writes a tuned value back in the unit the file
// used (TouchlineTuning's TunedConfig), so it sits with the parameters' units, in neither.

extension GraphConfiguration {
    /// "300ms" → 300 (ms), "0.3s" → 300, "1cm" → 10 (mm), "0.5rad" → 28.65 (degrees)…
    public static func parseQuantity(_ text: String, unit: ParameterUnit) -> Double? {
        let trimmed = text.filter { $0 != " " }
        var split = trimmed.startIndex
        while split < trimmed.endIndex, trimmed[split].isNumber || trimmed[split] == "." || trimmed[split] == "-" || trimmed[split] == "+" || trimmed[split] == "e" {
            split = trimmed.index(after: split)
        }
        guard let number = Double(trimmed[..<split]) else { return nil }
        let suffix = String(trimmed[split...])
        let factor: Double?
        switch unit {
        case .milliseconds: factor = ["ms": 1, "s": 1000, "us": 0.001, "µs": 0.001][suffix]
        case .millimetres: factor = ["mm": 1, "cm": 10, "m": 1000][suffix]
        case .millimetresPerSecond: factor = ["mm/s": 1, "cm/s": 10, "m/s": 1000][suffix]
        case .degrees: factor = ["deg": 1, "°": 1, "rad": 180 / GestureMath.pi][suffix]
        case .count, .flag, .normalized, .word, .words: factor = nil
        }
        guard let factor else { return nil }
        return number * factor
    }
}
