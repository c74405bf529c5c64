// In-memory inventory used by the storefront demo. Warehouses and stores share the same
// bookkeeping, which is why several methods look alike.

export interface StockLine {
  sku: string;
  quantity: number;
  reserved: number;
}

export class Warehouse {
  private readonly lines = new Map<string, StockLine>();

  constructor(readonly name: string) {}

  receive(sku: string, quantity: number): void {
    if (quantity <= 0) {
      throw new Error(`receive: quantity must be positive, got ${quantity}`);
    }
    const line = this.lines.get(sku) ?? { sku, quantity: 0, reserved: 0 };
    line.quantity += quantity;
    this.lines.set(sku, line);
  }

  available(sku: string): number {
    const line = this.lines.get(sku);
    if (!line) {
      return 0;
    }
    return line.quantity - line.reserved;
  }

  reserve(sku: string, quantity: number): boolean {
    const line = this.lines.get(sku);
    if (!line) {
      return false;
    }
    line.reserved += quantity;
    return true;
  }
}

export class Store {
  private readonly lines = new Map<string, StockLine>();

  constructor(readonly city: string) {}

  available(sku: string): number {
    const line = this.lines.get(sku);
    if (!line) {
      return 0;
    }
    return line.quantity - line.reserved;
  }

  reserve(sku: string, quantity: number): boolean {
    const line = this.lines.get(sku);
    if (!line) {
      return false;
    }
    line.reserved += quantity;
    return true;
  }

  sell(sku: string, quantity: number): void {
    const line = this.lines.get(sku);
    if (!line || line.reserved < quantity) {
      throw new Error(`sell: ${quantity} x ${sku} was not reserved in ${this.city}`);
    }
    line.reserved -= quantity;
    line.quantity -= quantity;
  }
}
