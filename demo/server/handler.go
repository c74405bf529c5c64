package server

import (
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"time"
)

// Order is what the storefront posts when a customer checks out.
type Order struct {
	ID        int64     `json:"id"`
	Customer  string    `json:"customer"`
	Items     []Item    `json:"items"`
	CreatedAt time.Time `json:"createdAt"`
}

// Item is one line of an order.
type Item struct {
	SKU      string `json:"sku"`
	Quantity int    `json:"quantity"`
	PriceCts int64  `json:"priceCents"`
}

var errEmptyOrder = errors.New("order has no items")

// Total returns the order total in cents.
func (o Order) Total() int64 {
	var total int64
	for _, it := range o.Items {
		total += int64(it.Quantity) * it.PriceCts
	}
	return total
}

func validate(o Order) error {
	if len(o.Items) == 0 {
		return errEmptyOrder
	}
	for i, it := range o.Items {
		if it.Quantity <= 0 {
			return errors.New("item " + strconv.Itoa(i) + ": quantity must be positive")
		}
	}
	return nil
}

// HandleOrder decodes an order, validates it and answers with its total.
func HandleOrder(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	var o Order
	if err := json.NewDecoder(r.Body).Decode(&o); err != nil {
		http.Error(w, "bad json: "+err.Error(), http.StatusBadRequest)
		return
	}
	if err := validate(o); err != nil {
		http.Error(w, err.Error(), http.StatusUnprocessableEntity)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]int64{"totalCents": o.Total()})
}
