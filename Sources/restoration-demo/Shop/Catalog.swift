/// One product of the shop.
struct Product: Sendable, Equatable {
    var id: String
    var name: String
    /// The price in euro cents.
    var priceInCents: Int
    var isOrganic: Bool
}

/// A currency prices can be shown in, at a fixed rate: the demo must be deterministic.
enum Currency: String, Codable, Sendable, CaseIterable {
    case euro = "EUR", dollar = "USD", pound = "GBP", yen = "JPY"

    /// Thousandths of this currency's unit per euro.
    private var thousandthsPerEuro: Int {
        switch self {
        case .euro: 1000
        case .dollar: 1080
        case .pound: 850
        case .yen: 162_000
        }
    }

    /// A price in euro cents, converted and written as `2.69 USD` or `403 JPY`.
    func format(cents: Int) -> String {
        let hundredths = cents * thousandthsPerEuro / 1000
        if self == .yen { return "\(hundredths / 100) \(rawValue)" }
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction) \(rawValue)"
    }
}

/// The shop's products, and search.
enum Catalog {
    static let products = [
        Product(id: "p-1093", name: "Organic Oat Milk 1 l", priceInCents: 189, isOrganic: true),
        Product(id: "p-3310", name: "Oat Milk Chocolate 250 ml", priceInCents: 129, isOrganic: false),
        Product(id: "p-2208", name: "Oat Milk Barista 1 l", priceInCents: 249, isOrganic: true),
        Product(id: "p-4102", name: "Oat Milk Light 1 l", priceInCents: 159, isOrganic: false),
        Product(id: "p-5120", name: "Oat Milk 6 x 1 l", priceInCents: 1099, isOrganic: true),
        Product(id: "p-0610", name: "Almond Milk 1 l", priceInCents: 219, isOrganic: true),
        Product(id: "p-0733", name: "Rolled Oats 500 g", priceInCents: 149, isOrganic: true),
        Product(id: "p-0981", name: "Soy Milk Vanilla 1 l", priceInCents: 179, isOrganic: false),
    ]

    /// The product with an identifier, if the shop has it.
    static func product(_ id: String) -> Product? {
        products.first { $0.id == id }
    }

    /// The products whose names contain every word of the query, filtered and sorted.
    static func search(_ query: String, filters: SearchScreen.Filters) -> [Product] {
        let words = query.lowercased().split(separator: " ")
        let found = products.filter { product in
            let name = product.name.lowercased()
            return words.allSatisfy { name.contains($0) } && (!filters.organicOnly || product.isOrganic)
        }
        return filters.sortedByPrice ? found.sorted { $0.priceInCents < $1.priceInCents } : found
    }
}
