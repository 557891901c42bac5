"""Ordered schema migrations. Append only: a released migration is never edited."""

MIGRATIONS: tuple[str, ...] = (
    # 1: rolls waiting for a decision (good re-roll, critical choice) and their outcome.
    """
    CREATE TABLE rolls (
        id INTEGER PRIMARY KEY,
        guild_id INTEGER,
        channel_id INTEGER NOT NULL,
        user_id INTEGER NOT NULL,
        note TEXT,
        state TEXT NOT NULL,
        version INTEGER NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL DEFAULT (datetime('now'))
    );
    """,
    # 2: per-server settings (the GM role).
    """
    CREATE TABLE guild_settings (
        guild_id INTEGER PRIMARY KEY,
        gm_role_id INTEGER
    );
    """,
    # 3: characters, per server; `data` is the engine's Character as JSON.
    """
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
    """,
    # 4: maps written by a server's GMs; `text` is the map in the engine's text format.
    """
    CREATE TABLE maps (
        id INTEGER PRIMARY KEY,
        guild_id INTEGER NOT NULL,
        name TEXT NOT NULL,
        name_key TEXT NOT NULL,
        text TEXT NOT NULL,
        author_id INTEGER NOT NULL,
        created_at TEXT NOT NULL DEFAULT (datetime('now')),
        updated_at TEXT NOT NULL DEFAULT (datetime('now')),
        UNIQUE (guild_id, name_key)
    );
    """,
    # 5: fights, one active per channel; every applied command is logged (undo, /combat log).
    """
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
    """,
    # 6: a fight step is one transaction with everything it changes. `fighting` says which
    # active fight each character is in (at most one); `next_deadline` and `shown_version` are
    # what start-up needs without reading whole states (every fight is shown again once, with
    # buttons of the new kind); a log entry keeps a patch back to the state before it, and is
    # written by a trigger from the step's own UPDATE.
    """
    ALTER TABLE combats ADD COLUMN next_deadline REAL;
    ALTER TABLE combats ADD COLUMN shown_version INTEGER NOT NULL DEFAULT -1;
    UPDATE combats SET next_deadline = (
        SELECT MIN(json_extract(p.value, '$.deadline'))
        FROM json_each(combats.state, '$.prompts') AS p
    ) WHERE active = 1;
    CREATE TABLE fighting (
        character_id INTEGER PRIMARY KEY,
        combat_id INTEGER NOT NULL REFERENCES combats (id)
    );
    CREATE INDEX fighting_by_combat ON fighting (combat_id);
    INSERT OR IGNORE INTO fighting (character_id, combat_id)
        SELECT json_extract(f.value, '$.character_id'), c.id
        FROM combats AS c, json_each(c.state, '$.fighters') AS f
        WHERE c.active = 1 AND json_extract(f.value, '$.character_id') IS NOT NULL
        ORDER BY c.id;
    ALTER TABLE combat_log ADD COLUMN undo_patch BLOB;
    -- A step's log entry rides on the step's UPDATE of its fight (`step_*`, the trigger
    -- below), so the usual step is one statement: one round trip, one commit.
    ALTER TABLE combats ADD COLUMN step_user INTEGER;
    ALTER TABLE combats ADD COLUMN step_command TEXT;
    ALTER TABLE combats ADD COLUMN step_events TEXT;
    ALTER TABLE combats ADD COLUMN step_patch BLOB;
    CREATE TRIGGER combats_log_each_step AFTER UPDATE OF version ON combats
    WHEN NEW.step_command IS NOT NULL BEGIN
        INSERT INTO combat_log (combat_id, user_id, command, events, state_before, undo_patch)
        VALUES (NEW.id, NEW.step_user, NEW.step_command, NEW.step_events, '', NEW.step_patch);
    END;
    """,
    # 7: facts about the bot itself, by key (the fingerprint of the commands last synced).
    """
    CREATE TABLE bot_meta (
        key TEXT PRIMARY KEY,
        value TEXT
    );
    """,
    # 8: how a fight is shown: its board pinned while it lasts; for a fight in a thread of its
    # own, the channel its result is posted back to; the turn whose players were last pinged
    # ("round:turn"), so a restart does not ping them again.
    """
    ALTER TABLE combats ADD COLUMN pin INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE combats ADD COLUMN report_channel_id INTEGER;
    ALTER TABLE combats ADD COLUMN announced_turn TEXT;
    """,
    # 9: which of the server's maps a fight is on (its id and when it was made, as an id may be
    # reused once its map is deleted): a name may pass to another map meanwhile. NULL: a
    # built-in map, or a fight started before this was kept (its name is all there is).
    """
    ALTER TABLE combats ADD COLUMN map_id INTEGER;
    ALTER TABLE combats ADD COLUMN map_created_at TEXT;
    """,
)
