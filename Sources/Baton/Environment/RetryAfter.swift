import Foundation

/// `Retry-After` (RFC 9110 §10.2.3): an HTTP-date or a whole number of seconds (`1*DIGIT`), nothing else.
///
/// Decisions made once here: surrounding spaces are ignored; a number is ASCII digits only (no sign, no point,
/// no exponent: `1e800`, `-1`, `1.5` and `inf` are not `Retry-After` values and are ignored); an HTTP-date is
/// IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`) or one of the two obsolete forms a recipient must accept
/// (RFC 850's `Sunday, 06-Nov-94 08:49:37 GMT`, a two-digit year below 70 read as 20xx, and asctime's
/// `Sun Nov  6 08:49:37 1994`), the day name not checked against the date; a date counts from now, and one in
/// the past is 0. Every delay is capped at `limit` (one day), so it is always finite and never negative.
public enum RetryAfter {
    /// The longest delay reported (seconds): any longer `Retry-After` reads as this.
    public static let limit: TimeInterval = 86_400

    /// The delay in seconds, or nil when the value is absent or not a `Retry-After` value.
    public static func seconds(_ value: String?, now: Date = Date()) -> TimeInterval? {
        guard let value = value?.trimmingCharacters(in: CharacterSet(charactersIn: " \t")), !value.isEmpty else {
            return nil
        }
        let bytes = Array(value.utf8)
        if bytes.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
            let significant = bytes.drop { $0 == 0x30 }
            // Past nine digits it is past the limit whatever it is (and past any integer type soon after).
            guard significant.count <= 9 else { return limit }
            let number = significant.reduce(0) { $0 * 10 + Int($1 - 0x30) }
            return min(TimeInterval(number), limit)
        }
        guard let date = httpDate(value) else { return nil }
        return min(max(date - now.timeIntervalSince1970, 0), limit)
    }

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    private static let dayNames = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    private static let longDayNames = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]

    /// Seconds since 1970 of an HTTP-date in one of its three forms, or nil.
    static func httpDate(_ text: String) -> TimeInterval? {
        let parts = text.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        var day: Int?
        var month: Int?
        var year: Int?
        var time: String
        if parts.count == 6, parts[0].hasSuffix(","), dayNames.contains(String(parts[0].dropLast())), parts[5] == "GMT"
        {
            // IMF-fixdate: day-name "," SP 2DIGIT SP month SP 4DIGIT SP time-of-day SP "GMT"
            (day, month, year, time) = (
                number(parts[1], 2), months.firstIndex(of: parts[2]), number(parts[3], 4), parts[4]
            )
        } else if parts.count == 4, parts[0].hasSuffix(","), longDayNames.contains(String(parts[0].dropLast())),
            parts[3] == "GMT"
        {
            // rfc850-date: day-name-l "," SP 2DIGIT "-" month "-" 2DIGIT SP time-of-day SP "GMT"
            let date = parts[1].split(separator: "-", omittingEmptySubsequences: false).map(String.init)
            guard date.count == 3 else { return nil }
            (day, month, time) = (number(date[0], 2), months.firstIndex(of: date[1]), parts[2])
            year = number(date[2], 2).map { $0 < 70 ? 2000 + $0 : 1900 + $0 }
        } else if parts.count == 5 || (parts.count == 6 && parts[2].isEmpty), dayNames.contains(parts[0]) {
            // asctime-date: day-name SP month SP ( 2DIGIT / ( SP DIGIT ) ) SP time-of-day SP 4DIGIT
            let rest = Array(parts[(parts.count - 3)...])
            day = parts.count == 5 ? number(parts[2], 2) : number(parts[3], 1)
            (month, time, year) = (months.firstIndex(of: parts[1]), rest[1], number(rest[2], 4))
        } else {
            return nil
        }
        let clock = time.split(separator: ":", omittingEmptySubsequences: false).map { number(String($0), 2) }
        guard let day, let month, let year, clock.count == 3, let hour = clock[0], let minute = clock[1],
            let second = clock[2], hour < 24, minute < 60, second <= 60, day >= 1, day <= daysIn(month + 1, year)
        else { return nil }
        let days = daysSince1970(year: year, month: month + 1, day: day)
        return TimeInterval(days * 86_400 + hour * 3_600 + minute * 60 + second)
    }

    /// Exactly `count` ASCII digits as a number, or nil.
    private static func number(_ text: String, _ count: Int) -> Int? {
        let bytes = Array(text.utf8)
        guard bytes.count == count, bytes.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return bytes.reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }

    private static func daysIn(_ month: Int, _ year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (Howard Hinnant's `days_from_civil`).
    private static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let shifted = month <= 2 ? year - 1 : year
        let era = (shifted >= 0 ? shifted : shifted - 399) / 400
        let yearOfEra = shifted - era * 400
        let dayOfYear = (153 * ((month + 9) % 12) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
