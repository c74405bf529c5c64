using System;
using System.Collections.Generic;
using System.Linq;

namespace Storefront.Billing
{
    /// <summary>An invoice for one order, in the customer's currency.</summary>
    public sealed class Invoice
    {
        private readonly List<InvoiceLine> _lines = new List<InvoiceLine>();

        public Invoice(string customer, string currency)
        {
            Customer = customer ?? throw new ArgumentNullException(nameof(customer));
            Currency = currency;
        }

        public string Customer { get; }
        public string Currency { get; }
        public IReadOnlyList<InvoiceLine> Lines => _lines;

        public void Add(string sku, int quantity, decimal unitPrice)
        {
            if (quantity <= 0)
            {
                throw new ArgumentOutOfRangeException(nameof(quantity), "Quantity must be positive.");
            }
            _lines.Add(new InvoiceLine(sku, quantity, unitPrice));
        }

        public decimal Subtotal() => _lines.Sum(l => l.Quantity * l.UnitPrice);

        public decimal Tax(decimal rate) => Math.Round(Subtotal() * rate, 2);

        public decimal Total(decimal taxRate) => Subtotal() + Tax(taxRate);
    }

    public sealed record InvoiceLine(string Sku, int Quantity, decimal UnitPrice);
}
