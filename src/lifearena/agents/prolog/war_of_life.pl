/*  War of Life board predicates for coursework strategies (lifearena).

    Written for lifearena from the rules in its documentation (docs/prolog.md and the
    docstring of lifearena.games.war_of_life); it is not the course's program, but it offers
    the predicates a coursework strategy calls, with the same argument conventions:

      * colours are the atoms b (blue, moves first) and r (red);
      * a board is [Blues, Reds], each a list of [Row, Col] cells sorted in standard order
        (by row, then column), rows and columns 1..8, row 1 at the top;
      * a move is [R1, C1, R2, C2]: the piece on [R1, C1] goes to the empty neighbouring
        cell [R2, C2];
      * "Conway's Crank" is one generation of the Immigration rule: a piece with 2 or 3
        neighbours (of either colour) survives in its colour, an empty cell with exactly 3
        neighbours is born in the colour of the majority of those 3, every other cell dies
        or stays empty.

    Move enumeration follows the coursework's tie order: your pieces in the order of your
    (sorted) list, then the 8 directions (-1,-1), (-1,0), (-1,+1), (0,-1), (0,+1), (+1,-1),
    (+1,0), (+1,+1).
*/

:- module(war_of_life,
          [ next_generation/2,      % +Board, -NextBoard
            neighbour_position/3,   % +Row, +Col, ?[NRow, NCol]
            alter_board/3,          % +Move, +Alive, -NewAlive
            opponent/2,             % ?Colour, ?OtherColour
            player_pieces/4,        % +Colour, +Board, -Own, -Other
            possible_move/3,        % +Colour, +Board, ?Move
            possible_moves/3,       % +Colour, +Board, -Moves
            legal_move/3,           % +Colour, +Board, +Move
            make_move/4,            % +Colour, +Board, +Move, -NewBoard
            move_and_crank/4,       % +Colour, +Board, +Move, -CrankedBoard
            count_pieces/3,         % +Board, -Blues, -Reds
            land_grab_value/3,      % +Colour, +Board, -Value
            start_config/2,         % +Kind, -Board
            draw_board/1            % +Board
          ]).

:- use_module(library(lists)).
:- use_module(library(ordsets)).
:- use_module(library(random)).

%!  neighbour_position(+Row, +Col, ?Neighbour) is nondet.
%
%   Neighbour = [NRow, NCol] is one of the up to 8 cells next to [Row, Col] that lie on the
%   board, enumerated in the coursework's direction order.

neighbour_position(Row, Col, Neighbour) :-
    cell_neighbours(Row, Col, Neighbours, _, _),
    member(Neighbour, Neighbours).

% cell_neighbours(Row, Col, Cells, BlueMarks, RedMarks): a table made at load time of each
% cell's on-board neighbours, and of the same neighbours as integer marks for the crank:
% 4 * (16 * NRow + NCol), plus 1 for a red piece's mark.
:- dynamic cell_neighbours/5.

make_neighbour_table :-
    retractall(cell_neighbours(_, _, _, _, _)),
    forall(( between(1, 8, Row), between(1, 8, Col) ),
           ( findall([NRow, NCol],
                     ( member(DR, [-1, 0, 1]), member(DC, [-1, 0, 1]),
                       \+ (DR =:= 0, DC =:= 0),
                       NRow is Row + DR, NRow >= 1, NRow =< 8,
                       NCol is Col + DC, NCol >= 1, NCol =< 8 ),
                     Cells),
             findall(M, ( member([R, C], Cells), M is 4 * (16 * R + C) ), BlueMarks),
             findall(M, ( member(B, BlueMarks), M is B + 1 ), RedMarks),
             assertz(cell_neighbours(Row, Col, Cells, BlueMarks, RedMarks)) )),
    compile_predicates([cell_neighbours/5]).

:- initialization(make_neighbour_table).

%!  alter_board(+Move, +Alive, -NewAlive) is det.
%
%   NewAlive is the sorted list Alive with the cell [R1, C1] of Move = [R1, C1, R2, C2]
%   replaced by [R2, C2]. Fails if [R1, C1] is not in Alive.

alter_board([R1, C1, R2, C2], Alive, NewAlive) :-
    selectchk([R1, C1], Alive, Rest),
    ord_add_element(Rest, [R2, C2], NewAlive).

%!  opponent(?Colour, ?Other) is semidet.

opponent(b, r).
opponent(r, b).

%!  player_pieces(+Colour, +Board, -Own, -Other) is det.
%
%   Own are Colour's pieces on Board = [Blues, Reds], Other the opponent's.

player_pieces(b, [Blues, Reds], Blues, Reds).
player_pieces(r, [Blues, Reds], Reds, Blues).

%!  possible_move(+Colour, +Board, ?Move) is nondet.
%
%   Move is a legal move of Colour on Board; on backtracking every legal move in the
%   coursework's tie order.

possible_move(Colour, Board, [R1, C1, R2, C2]) :-
    player_pieces(Colour, Board, Own, Other),
    member([R1, C1], Own),
    neighbour_position(R1, C1, [R2, C2]),
    \+ memberchk([R2, C2], Own),
    \+ memberchk([R2, C2], Other).

%!  possible_moves(+Colour, +Board, -Moves) is det.
%
%   Moves lists every legal move of Colour on Board in tie order ([] when there is none).

possible_moves(Colour, Board, Moves) :-
    findall(Move, possible_move(Colour, Board, Move), Moves).

%!  legal_move(+Colour, +Board, +Move) is semidet.
%
%   True if Move (a list [R1,C1,R2,C2] of integers) is a legal move of Colour on Board.

legal_move(Colour, Board, [R1, C1, R2, C2]) :-
    maplist(integer, [R1, C1, R2, C2]),
    possible_move(Colour, Board, [R1, C1, R2, C2]),
    !.

%!  make_move(+Colour, +Board, +Move, -NewBoard) is semidet.
%
%   NewBoard is Board after Colour plays Move, before the crank: the NewBoardState a
%   strategy returns. Does not check that the target cell is empty (see legal_move/3).

make_move(b, [Blues, Reds], Move, [NewBlues, Reds]) :-
    alter_board(Move, Blues, NewBlues).
make_move(r, [Blues, Reds], Move, [Blues, NewReds]) :-
    alter_board(Move, Reds, NewReds).

%!  move_and_crank(+Colour, +Board, +Move, -Cranked) is semidet.
%
%   Cranked is the board after Colour's Move and the crank that follows it.

move_and_crank(Colour, Board, Move, Cranked) :-
    make_move(Colour, Board, Move, Moved),
    next_generation(Moved, Cranked).

%!  count_pieces(+Board, -Blues, -Reds) is det.

count_pieces([Blues, Reds], NBlues, NReds) :-
    length(Blues, NBlues),
    length(Reds, NReds).

%!  land_grab_value(+Colour, +Board, -Value) is det.
%
%   Value is Colour's pieces minus the opponent's pieces on Board.

land_grab_value(Colour, Board, Value) :-
    player_pieces(Colour, Board, Own, Other),
    length(Own, NOwn),
    length(Other, NOther),
    Value is NOwn - NOther.

%!  next_generation(+Board, -Next) is det.
%
%   Next is Board after one generation of the Immigration rule (Conway's Crank), both
%   lists sorted. Only the cells next to a piece can be alive afterwards, so the
%   neighbours of every piece are listed with the piece's colour, sorted, and counted.

next_generation([Blues, Reds], [NewBlues, NewReds]) :-
    blue_marks(Blues, Marks, RedMarks),
    red_marks(Reds, RedMarks, []),
    msort(Marks, Sorted),
    new_cells(Sorted, Blues, Reds, NewBlues, NewReds).

% The marks of every on-board neighbour of every piece, as a difference list.
blue_marks([], Tail, Tail).
blue_marks([[R, C]|Pieces], Marks, Tail) :-
    cell_neighbours(R, C, _, Mine, _),
    append(Mine, Rest, Marks),
    blue_marks(Pieces, Rest, Tail).

red_marks([], Tail, Tail).
red_marks([[R, C]|Pieces], Marks, Tail) :-
    cell_neighbours(R, C, _, _, Mine),
    append(Mine, Rest, Marks),
    red_marks(Pieces, Rest, Tail).

% Sorted marks -> the cells alive after the crank, in cell order. Cells with no neighbour
% die or stay empty, so only the marked cells matter.
new_cells([], _, _, [], []).
new_cells([Mark|Marks], Blues, Reds, NewBlues, NewReds) :-
    Key is Mark >> 2,
    tally(Mark, 0, 0, NB0, NR0),
    count_cell(Marks, Key, NB0, NR0, NB, NR, Rest),
    R is Key >> 4,
    C is Key /\ 15,
    N is NB + NR,
    (   memberchk([R, C], Blues)
    ->  ( (N =:= 2 ; N =:= 3) -> Colour = b ; Colour = none )
    ;   memberchk([R, C], Reds)
    ->  ( (N =:= 2 ; N =:= 3) -> Colour = r ; Colour = none )
    ;   N =:= 3
    ->  ( NB >= 2 -> Colour = b ; Colour = r )
    ;   Colour = none
    ),
    add_cell(Colour, [R, C], NewBlues, NewReds, Blues1, Reds1),
    new_cells(Rest, Blues, Reds, Blues1, Reds1).

count_cell([Mark|Marks], Key, NB0, NR0, NB, NR, Rest) :-
    Mark >> 2 =:= Key,
    !,
    tally(Mark, NB0, NR0, NB1, NR1),
    count_cell(Marks, Key, NB1, NR1, NB, NR, Rest).
count_cell(Rest, _, NB, NR, NB, NR, Rest).

tally(Mark, NB0, NR0, NB, NR) :-
    (   Mark /\ 1 =:= 0
    ->  NB is NB0 + 1, NR = NR0
    ;   NB = NB0, NR is NR0 + 1
    ).

add_cell(b, Cell, [Cell|Blues], Reds, Blues, Reds).
add_cell(r, Cell, Blues, [Cell|Reds], Blues, Reds).
add_cell(none, _, Blues, Reds, Blues, Reds).

%!  start_config(+Kind, -Board) is det.
%
%   A start position for trying a strategy by hand: Kind = random draws 12 blue then 12 red
%   pieces on distinct cells with Prolog's random generator (the arena's starts come from
%   its seeds instead); Kind = empty is [[], []].

start_config(random, [Blues, Reds]) :-
    findall([R, C], (between(1, 8, R), between(1, 8, C)), Cells),
    random_permutation(Cells, Shuffled),
    length(Blue12, 12), append(Blue12, Rest, Shuffled),
    length(Red12, 12), append(Red12, _, Rest),
    msort(Blue12, Blues),
    msort(Red12, Reds).
start_config(empty, [[], []]).

%!  draw_board(+Board) is det.
%
%   Prints Board in the coursework's layout (column header, a frame, b and r cells) on the
%   current output. Inside the arena the current output is standard error.

draw_board([Blues, Reds]) :-
    format("  12345678~n +--------+~n"),
    forall(between(1, 8, R),
           ( format("~w|", [R]),
             forall(between(1, 8, C),
                    (   memberchk([R, C], Blues) -> write(b)
                    ;   memberchk([R, C], Reds) -> write(r)
                    ;   write(' ')
                    )),
             format("|~n") )),
    format(" +--------+~n").
