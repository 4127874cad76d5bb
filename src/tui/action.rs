//! What a key press asks for. The keymap turns keys into these; only
//! `App::update` gives them effect.

/// One user request, independent of the key that made it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Leave cgtui (exit status 0).
    Quit,
    /// Leave cgtui as interrupted (Ctrl-C: exit status 130).
    Interrupt,
    /// Suspend cgtui (Ctrl-Z), the terminal restored; `fg` comes back.
    Suspend,
    /// Clear the terminal and draw everything again (Ctrl-L).
    Redraw,
    /// Move the selection up one row.
    Up,
    /// Move the selection down one row.
    Down,
    /// Move the selection up one page.
    PageUp,
    /// Move the selection down one page.
    PageDown,
    /// Move the selection to the first row.
    Top,
    /// Move the selection to the last row.
    Bottom,
    /// Focus the next pane (list, callers, callees).
    NextPane,
    /// Focus the previous pane.
    PrevPane,
    /// Make the selected function (or the callee of the selected call line)
    /// the current one.
    Open,
    /// Go to the `<cycle N>` row of the selected function's cycle.
    GoToCycle,
    /// Go back along the history of current functions.
    Back,
    /// Go forward again along the history.
    Forward,
    /// Open the fuzzy search.
    Search,
    /// Type a character into the search query.
    SearchInput(char),
    /// Delete the character before the cursor in the search query.
    SearchDelete,
    /// Delete the character under the cursor in the search query.
    SearchDeleteForward,
    /// Delete the word before the cursor in the search query (readline's
    /// Ctrl-W).
    SearchDeleteWord,
    /// Delete from the start of the search query to the cursor.
    SearchDeleteToStart,
    /// Move the search query's cursor one character left.
    CursorLeft,
    /// Move the search query's cursor one character right.
    CursorRight,
    /// Move the search query's cursor to its start.
    CursorStart,
    /// Move the search query's cursor to its end.
    CursorEnd,
    /// Go to the selected search result.
    SearchAccept,
    /// Go to the next result of the last search.
    NextMatch,
    /// Go to the previous result of the last search.
    PrevMatch,
    /// Show or hide the source view of the current function.
    Source,
    /// Jump to the next line with a cost in the source view.
    NextHot,
    /// Jump to the previous line with a cost in the source view.
    PrevHot,
    /// Show the next source file of the function (inlined code).
    NextFile,
    /// Show the previous source file of the function.
    PrevFile,
    /// List the load warnings.
    Warnings,
    /// Show costs of the next event type (derived events included).
    NextEvent,
    /// Show costs of the previous event type.
    PrevEvent,
    /// Switch between absolute costs and percent of the total.
    TogglePercent,
    /// Sort the list (in the groups popup: the groups) by inclusive cost.
    SortInclusive,
    /// Sort the list (in the groups popup: the groups) by self cost.
    SortSelf,
    /// Sort the list by number of calls (the groups: of functions).
    SortCalls,
    /// Sort the list (in the groups popup: the groups) by name.
    SortName,
    /// Open the list of parts (threads, dumps).
    Parts,
    /// Open the column chooser: the metrics to show beside the list's costs.
    Columns,
    /// Show or hide the selected metric's inclusive column.
    ToggleColumn,
    /// Show or hide the selected metric's self column.
    ToggleSelfColumn,
    /// Sort the list by the selected metric's inclusive column (shown if
    /// it was not); again: reverse.
    SortByColumn,
    /// Switch the selected part on or off.
    TogglePart,
    /// Switch every part on.
    AllParts,
    /// Show the help screen.
    Help,
    /// Close the innermost popup or view.
    Close,
    /// Scroll the source view's text left (toward the line starts).
    ShiftLeft,
    /// Scroll the source view's text right, to read long lines.
    ShiftRight,
    /// Fold C++ template argument lists to `<…>` in names, or unfold them.
    FoldTemplates,
    /// Show mangled names as the profile writes them, or demangled.
    ToggleDemangle,
    /// The groups popup (by object, file, class, module).
    Groups,
    /// In the groups popup: the next way of grouping.
    NextGrouping,
    /// The search prompt whose Enter filters the list by the query.
    Filter,
    /// Copy the selected function's full name to the clipboard (OSC 52).
    CopyName,
    /// Copy the selected place as `file:line` to the clipboard (OSC 52).
    CopyPlace,
    /// Switch mouse capture on or off (off: the terminal selects text).
    ToggleMouse,
    /// Scroll the pane under the mouse pointer up.
    WheelUp,
    /// Scroll the pane under the mouse pointer down.
    WheelDown,
    /// Select the row under the mouse pointer and focus its pane; a second
    /// click on the same row soon after acts as Enter.
    Click,
    /// Open the call tree of the current function (from the roots for a
    /// root or nothing selected).
    CallTree,
    /// Open the caller tree of the current function.
    CallerTree,
    /// Open the flame graph of the whole program.
    FlameGraph,
    /// Open the selected tree node (again: go to its first child).
    Expand,
    /// Close the selected tree node (closed: go to its parent).
    Collapse,
    /// Open everything below the selected node down to 1% of its cost.
    ExpandAll,
    /// Flame graph: show each box's self cost as a shaded part under it
    /// (again: hide it).
    ToggleSelf,
    /// The assembly view of the current function (again: close it).
    Assembly,
    /// Assembly view: draw every jump's arrow, not only the selected
    /// instruction's and the hottest (again: those only).
    AllArrows,
    /// Assembly view: the source lines between the instructions, or not.
    SourceLines,
}
