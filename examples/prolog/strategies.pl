/*  The four War of Life coursework strategies, written in Prolog the way a student would.

    Play one in the arena with, for example,
        lifearena war-of-life play --prolog examples/prolog/strategies.pl:bloodlust \
            --blue prolog --red minimax --quiet
    Each predicate is strategy(+PlayerColour, +CurrentBoardState, -NewBoardState, -Move).
    They use only the board predicates next_generation/2, neighbour_position/3 and
    alter_board/3, which lifearena provides. Ties go to the first best move in the order
    the moves are generated: my pieces in the order of my (sorted) list, then the
    neighbour_position/3 directions; the arena's Python strategies break ties the same way.
*/

% bloodlust: the move after which the opponent has the fewest pieces.
bloodlust(Colour, Board, NewBoard, Move) :-
    best_move(Colour, Board, bloodlust_score, Move, NewBoard).

% self_preservation: the move after which I have the most pieces.
self_preservation(Colour, Board, NewBoard, Move) :-
    best_move(Colour, Board, self_preservation_score, Move, NewBoard).

% land_grab: the move after which (my pieces - opponent's pieces) is largest.
land_grab(Colour, Board, NewBoard, Move) :-
    best_move(Colour, Board, land_grab_score, Move, NewBoard).

% minimax: two plies of land grab; the opponent answers each of my moves with the reply
% that is worst for me.
minimax(Colour, Board, NewBoard, Move) :-
    best_move(Colour, Board, minimax_score, Move, NewBoard).

% -- scores of the board right after my move (before the crank) ---------------------------

bloodlust_score(Colour, Moved, Score) :-
    next_generation(Moved, Cranked),
    pieces(Colour, Cranked, _, Theirs),
    length(Theirs, N),
    Score is -N.

self_preservation_score(Colour, Moved, Score) :-
    next_generation(Moved, Cranked),
    pieces(Colour, Cranked, Mine, _),
    length(Mine, Score).

land_grab_score(Colour, Moved, Score) :-
    next_generation(Moved, Cranked),
    land_grab_value(Colour, Cranked, Score).

minimax_score(Colour, Moved, Score) :-
    next_generation(Moved, Cranked),
    other_colour(Colour, Other),
    all_moves(Other, Cranked, Replies),
    (   Replies == []
    ->  land_grab_value(Colour, Cranked, Score)
    ;   findall(Value,
                ( member(_-Replied, Replies),
                  next_generation(Replied, Cranked2),
                  land_grab_value(Colour, Cranked2, Value) ),
                Values),
        min_list(Values, Score)
    ).

land_grab_value(Colour, Board, Value) :-
    pieces(Colour, Board, Mine, Theirs),
    length(Mine, M),
    length(Theirs, T),
    Value is M - T.

% -- moves -----------------------------------------------------------------------------------

other_colour(b, r).
other_colour(r, b).

pieces(b, [Blues, Reds], Blues, Reds).
pieces(r, [Blues, Reds], Reds, Blues).

% all_moves(+Colour, +Board, -Moves): every Move-NewBoard of Colour, in generation order.
all_moves(b, [Blues, Reds], Moves) :-
    findall(Move-[NewBlues, Reds],
            ( piece_move(Blues, Reds, Move), alter_board(Move, Blues, NewBlues) ),
            Moves).
all_moves(r, [Blues, Reds], Moves) :-
    findall(Move-[Blues, NewReds],
            ( piece_move(Reds, Blues, Move), alter_board(Move, Reds, NewReds) ),
            Moves).

piece_move(Mine, Theirs, [A, B, MA, MB]) :-
    member([A, B], Mine),
    neighbour_position(A, B, [MA, MB]),
    \+ member([MA, MB], Mine),
    \+ member([MA, MB], Theirs).

% best_move(+Colour, +Board, +Scorer, -Move, -NewBoard): the first move with the best score.
best_move(Colour, Board, Scorer, Move, NewBoard) :-
    all_moves(Colour, Board, [First-FirstBoard|Rest]),
    call(Scorer, Colour, FirstBoard, FirstScore),
    best_of(Rest, Colour, Scorer, First-FirstBoard, FirstScore, Move-NewBoard).

best_of([], _, _, Best, _, Best).
best_of([Move-Moved|Rest], Colour, Scorer, Best0, Score0, Best) :-
    call(Scorer, Colour, Moved, Score),
    (   Score > Score0
    ->  best_of(Rest, Colour, Scorer, Move-Moved, Score, Best)
    ;   best_of(Rest, Colour, Scorer, Best0, Score0, Best)
    ).
