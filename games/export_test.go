package games

// CanonPieceSpread is CanonPiece without the tables, for the tests of
// the tables.
func CanonPieceSpread(gr *Group, k PieceKey) PieceKey { return gr.canonPieceSpread(k) }

// StartGroupMaps are the maps of gr, the identity first.
func StartGroupMaps(gr *Group) []*KeyMap { return gr.maps }
