package ui

// topAs is the overlay on top as a T, or T's zero value (nil) when the
// top one is not a T or none is open.
func topAs[T Overlay](m *Model) T {
	t, _ := m.top().(T)
	return t
}

// topIs reports whether the overlay on top is a T.
func topIs[T Overlay](m *Model) bool {
	_, ok := m.top().(T)
	return ok
}
