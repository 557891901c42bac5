-- fights, one active per channel; every applied command is logged (undo, /combat log).
CREATE TABLE combats (
    id INTEGER PRIMARY KEY,
    guild_id INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    map_name TEXT NOT NULL,
    state TEXT NOT NULL,
    version INTEGER NOT NULL DEFAULT 0,
    active INTEGER NOT NULL DEFAULT 1,
    board_message_id INTEGER,
    prompt_message_id INTEGER,
    created_at TEXT NOT NULL DEFAULT (datetime('now')),
    updated_at TEXT NOT NULL DEFAULT (datetime('now'))
);
CREATE UNIQUE INDEX combats_one_active_per_channel ON combats (channel_id) WHERE active = 1;
CREATE TABLE combat_log (
    id INTEGER PRIMARY KEY,
    combat_id INTEGER NOT NULL REFERENCES combats (id),
    user_id INTEGER NOT NULL,
    command TEXT NOT NULL,
    events TEXT NOT NULL,
    state_before TEXT NOT NULL,
    undone INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL DEFAULT (datetime('now'))
);
CREATE INDEX combat_log_by_combat ON combat_log (combat_id, id);
