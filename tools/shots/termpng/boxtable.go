package termpng

// boxLines gives, for each box-drawing character U+2500..U+257F, the weight
// of its arm towards each side of the cell (up, right, down, left: 0 none,
// 1 light, 2 heavy, 3 double) and how many dashes split its line (0 solid).
// The arcs and diagonals (all zero here) are drawn apart. The rows were
// derived from the characters' Unicode names ("BOX DRAWINGS UP HEAVY AND
// LEFT DOWN LIGHT"), one per code point in order.
var boxLines = [0x80]boxArms{
	{0, 1, 0, 1, 0}, // ─ light horizontal
	{0, 2, 0, 2, 0}, // ━ heavy horizontal
	{1, 0, 1, 0, 0}, // │ light vertical
	{2, 0, 2, 0, 0}, // ┃ heavy vertical
	{0, 1, 0, 1, 3}, // ┄ light triple dash horizontal
	{0, 2, 0, 2, 3}, // ┅ heavy triple dash horizontal
	{1, 0, 1, 0, 3}, // ┆ light triple dash vertical
	{2, 0, 2, 0, 3}, // ┇ heavy triple dash vertical
	{0, 1, 0, 1, 4}, // ┈ light quadruple dash horizontal
	{0, 2, 0, 2, 4}, // ┉ heavy quadruple dash horizontal
	{1, 0, 1, 0, 4}, // ┊ light quadruple dash vertical
	{2, 0, 2, 0, 4}, // ┋ heavy quadruple dash vertical
	{0, 1, 1, 0, 0}, // ┌ light down and right
	{0, 2, 1, 0, 0}, // ┍ down light and right heavy
	{0, 1, 2, 0, 0}, // ┎ down heavy and right light
	{0, 2, 2, 0, 0}, // ┏ heavy down and right
	{0, 0, 1, 1, 0}, // ┐ light down and left
	{0, 0, 1, 2, 0}, // ┑ down light and left heavy
	{0, 0, 2, 1, 0}, // ┒ down heavy and left light
	{0, 0, 2, 2, 0}, // ┓ heavy down and left
	{1, 1, 0, 0, 0}, // └ light up and right
	{1, 2, 0, 0, 0}, // ┕ up light and right heavy
	{2, 1, 0, 0, 0}, // ┖ up heavy and right light
	{2, 2, 0, 0, 0}, // ┗ heavy up and right
	{1, 0, 0, 1, 0}, // ┘ light up and left
	{1, 0, 0, 2, 0}, // ┙ up light and left heavy
	{2, 0, 0, 1, 0}, // ┚ up heavy and left light
	{2, 0, 0, 2, 0}, // ┛ heavy up and left
	{1, 1, 1, 0, 0}, // ├ light vertical and right
	{1, 2, 1, 0, 0}, // ┝ vertical light and right heavy
	{2, 1, 1, 0, 0}, // ┞ up heavy and right down light
	{1, 1, 2, 0, 0}, // ┟ down heavy and right up light
	{2, 1, 2, 0, 0}, // ┠ vertical heavy and right light
	{2, 2, 1, 0, 0}, // ┡ down light and right up heavy
	{1, 2, 2, 0, 0}, // ┢ up light and right down heavy
	{2, 2, 2, 0, 0}, // ┣ heavy vertical and right
	{1, 0, 1, 1, 0}, // ┤ light vertical and left
	{1, 0, 1, 2, 0}, // ┥ vertical light and left heavy
	{2, 0, 1, 1, 0}, // ┦ up heavy and left down light
	{1, 0, 2, 1, 0}, // ┧ down heavy and left up light
	{2, 0, 2, 1, 0}, // ┨ vertical heavy and left light
	{2, 0, 1, 2, 0}, // ┩ down light and left up heavy
	{1, 0, 2, 2, 0}, // ┪ up light and left down heavy
	{2, 0, 2, 2, 0}, // ┫ heavy vertical and left
	{0, 1, 1, 1, 0}, // ┬ light down and horizontal
	{0, 1, 1, 2, 0}, // ┭ left heavy and right down light
	{0, 2, 1, 1, 0}, // ┮ right heavy and left down light
	{0, 2, 1, 2, 0}, // ┯ down light and horizontal heavy
	{0, 1, 2, 1, 0}, // ┰ down heavy and horizontal light
	{0, 1, 2, 2, 0}, // ┱ right light and left down heavy
	{0, 2, 2, 1, 0}, // ┲ left light and right down heavy
	{0, 2, 2, 2, 0}, // ┳ heavy down and horizontal
	{1, 1, 0, 1, 0}, // ┴ light up and horizontal
	{1, 1, 0, 2, 0}, // ┵ left heavy and right up light
	{1, 2, 0, 1, 0}, // ┶ right heavy and left up light
	{1, 2, 0, 2, 0}, // ┷ up light and horizontal heavy
	{2, 1, 0, 1, 0}, // ┸ up heavy and horizontal light
	{2, 1, 0, 2, 0}, // ┹ right light and left up heavy
	{2, 2, 0, 1, 0}, // ┺ left light and right up heavy
	{2, 2, 0, 2, 0}, // ┻ heavy up and horizontal
	{1, 1, 1, 1, 0}, // ┼ light vertical and horizontal
	{1, 1, 1, 2, 0}, // ┽ left heavy and right vertical light
	{1, 2, 1, 1, 0}, // ┾ right heavy and left vertical light
	{1, 2, 1, 2, 0}, // ┿ vertical light and horizontal heavy
	{2, 1, 1, 1, 0}, // ╀ up heavy and down horizontal light
	{1, 1, 2, 1, 0}, // ╁ down heavy and up horizontal light
	{2, 1, 2, 1, 0}, // ╂ vertical heavy and horizontal light
	{2, 1, 1, 2, 0}, // ╃ left up heavy and right down light
	{2, 2, 1, 1, 0}, // ╄ right up heavy and left down light
	{1, 1, 2, 2, 0}, // ╅ left down heavy and right up light
	{1, 2, 2, 1, 0}, // ╆ right down heavy and left up light
	{2, 2, 1, 2, 0}, // ╇ down light and up horizontal heavy
	{1, 2, 2, 2, 0}, // ╈ up light and down horizontal heavy
	{2, 1, 2, 2, 0}, // ╉ right light and left vertical heavy
	{2, 2, 2, 1, 0}, // ╊ left light and right vertical heavy
	{2, 2, 2, 2, 0}, // ╋ heavy vertical and horizontal
	{0, 1, 0, 1, 2}, // ╌ light double dash horizontal
	{0, 2, 0, 2, 2}, // ╍ heavy double dash horizontal
	{1, 0, 1, 0, 2}, // ╎ light double dash vertical
	{2, 0, 2, 0, 2}, // ╏ heavy double dash vertical
	{0, 3, 0, 3, 0}, // ═ double horizontal
	{3, 0, 3, 0, 0}, // ║ double vertical
	{0, 3, 1, 0, 0}, // ╒ down single and right double
	{0, 1, 3, 0, 0}, // ╓ down double and right single
	{0, 3, 3, 0, 0}, // ╔ double down and right
	{0, 0, 1, 3, 0}, // ╕ down single and left double
	{0, 0, 3, 1, 0}, // ╖ down double and left single
	{0, 0, 3, 3, 0}, // ╗ double down and left
	{1, 3, 0, 0, 0}, // ╘ up single and right double
	{3, 1, 0, 0, 0}, // ╙ up double and right single
	{3, 3, 0, 0, 0}, // ╚ double up and right
	{1, 0, 0, 3, 0}, // ╛ up single and left double
	{3, 0, 0, 1, 0}, // ╜ up double and left single
	{3, 0, 0, 3, 0}, // ╝ double up and left
	{1, 3, 1, 0, 0}, // ╞ vertical single and right double
	{3, 1, 3, 0, 0}, // ╟ vertical double and right single
	{3, 3, 3, 0, 0}, // ╠ double vertical and right
	{1, 0, 1, 3, 0}, // ╡ vertical single and left double
	{3, 0, 3, 1, 0}, // ╢ vertical double and left single
	{3, 0, 3, 3, 0}, // ╣ double vertical and left
	{0, 3, 1, 3, 0}, // ╤ down single and horizontal double
	{0, 1, 3, 1, 0}, // ╥ down double and horizontal single
	{0, 3, 3, 3, 0}, // ╦ double down and horizontal
	{1, 3, 0, 3, 0}, // ╧ up single and horizontal double
	{3, 1, 0, 1, 0}, // ╨ up double and horizontal single
	{3, 3, 0, 3, 0}, // ╩ double up and horizontal
	{1, 3, 1, 3, 0}, // ╪ vertical single and horizontal double
	{3, 1, 3, 1, 0}, // ╫ vertical double and horizontal single
	{3, 3, 3, 3, 0}, // ╬ double vertical and horizontal
	{},              // U+256d ╭ light arc down and right (drawn apart)
	{},              // U+256e ╮ light arc down and left (drawn apart)
	{},              // U+256f ╯ light arc up and left (drawn apart)
	{},              // U+2570 ╰ light arc up and right (drawn apart)
	{},              // U+2571 ╱ light diagonal upper right to lower left (drawn apart)
	{},              // U+2572 ╲ light diagonal upper left to lower right (drawn apart)
	{},              // U+2573 ╳ light diagonal cross (drawn apart)
	{0, 0, 0, 1, 0}, // ╴ light left
	{1, 0, 0, 0, 0}, // ╵ light up
	{0, 1, 0, 0, 0}, // ╶ light right
	{0, 0, 1, 0, 0}, // ╷ light down
	{0, 0, 0, 2, 0}, // ╸ heavy left
	{2, 0, 0, 0, 0}, // ╹ heavy up
	{0, 2, 0, 0, 0}, // ╺ heavy right
	{0, 0, 2, 0, 0}, // ╻ heavy down
	{0, 2, 0, 1, 0}, // ╼ light left and heavy right
	{1, 0, 2, 0, 0}, // ╽ light up and heavy down
	{0, 1, 0, 2, 0}, // ╾ heavy left and light right
	{2, 0, 1, 0, 0}, // ╿ heavy up and light down
}
