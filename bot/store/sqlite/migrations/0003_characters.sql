-- characters, per server; `data` is the engine's Character as JSON.
CREATE TABLE characters (
    id INTEGER PRIMARY KEY,
    guild_id INTEGER NOT NULL,
    name TEXT NOT NULL,
    name_key TEXT NOT NULL,
    owner_id INTEGER NOT NULL,
    npc INTEGER NOT NULL,
    data TEXT NOT NULL,
    version INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL DEFAULT (datetime('now')),
    updated_at TEXT NOT NULL DEFAULT (datetime('now')),
    UNIQUE (guild_id, name_key)
);
CREATE INDEX characters_owner ON characters (guild_id, owner_id);
