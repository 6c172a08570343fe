package main

// FerretDB indexes a field as `_ferretdb_sjson->"f"` (its JSON text), which
// no SQL of FerretDB's filters on but `{_id}`, and that look-up is written
// `_ferretdb_sjson->'$._id'`, a text SQLite's planner does not match with it.
// So the embedding keeps, in every collection table:
//   - `<table>_offerops_id` on `_ferretdb_sjson->'$._id'`: a read by `_id` is
//     a B-tree search rather than a scan;
//   - every non-unique index a client declared rewritten on the expressions
//     the planner writes (fieldSQL), under FerretDB's own name, so that its
//     lists and counts walk it and `dropIndexes` still finds it;
//   - beside every unique index, whose constraint FerretDB's expressions keep,
//     a twin `offerops:<table>:<index>` on the planner's expressions.
// Twins of indexes dropped since are dropped. FerretDB lists indexes from its
// own metadata, so clients see exactly the indexes they declared.

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// indexSweep is how often indexTables looks for new collection tables and declared indexes.
const indexSweep = 200 * time.Millisecond

// idIndexSuffix names a table's `_id` index; twinPrefix its twins (FerretDB's own names are `<table>_<index>`,
// of letters, digits and underscores).
const (
	idIndexSuffix = "_offerops_id"
	twinPrefix    = "offerops:"
)

// indexTables keeps the indexes above on every database file under dir, looking at the files that changed since
// the last sweep (FerretDB creates tables and indexes when a client first writes or declares them).
func indexTables(ctx context.Context, dir string, logger *slog.Logger) {
	seen := map[string]time.Time{}
	ticker := time.NewTicker(indexSweep)
	defer ticker.Stop()
	for {
		files, _ := filepath.Glob(filepath.Join(dir, "*.sqlite"))
		for _, file := range files {
			changed := lastChange(file)
			if changed.IsZero() || changed.Equal(seen[file]) {
				continue
			}
			if err := indexFile(ctx, file); err != nil {
				logger.Warn("offerops-ferretdb: indexing", "file", filepath.Base(file), "error", err)
				continue // tried again on the next sweep
			}
			seen[file] = changed
		}
		select {
		case <-ctx.Done():
			return
		case <-ticker.C:
		}
	}
}

// lastChange is the latest modification time of a database file and its write-ahead log.
func lastChange(file string) time.Time {
	var latest time.Time
	for _, name := range []string{file, file + "-wal"} {
		if fi, err := os.Stat(name); err == nil && fi.ModTime().After(latest) {
			latest = fi.ModTime()
		}
	}
	return latest
}

// declared is the part of FerretDB's collection settings the indexes follow.
type declared struct {
	Indexes []struct {
		Name   string     `json:"name"`
		Unique bool       `json:"unique"`
		Key    []indexKey `json:"key"`
	} `json:"indexes"`
}

type indexKey struct {
	Field      string `json:"field"`
	Descending bool   `json:"descending"`
}

// wanted is an index the embedding keeps: its CREATE statement and the text its definition must contain.
type wanted struct{ create, columns string }

// indexFile brings one database file's indexes in line with its collections and their declared indexes.
func indexFile(ctx context.Context, file string) error {
	// mode=rw: a database dropped meanwhile is not created again.
	db, err := sql.Open("sqlite", "file:"+file+"?mode=rw&_pragma=busy_timeout(10000)")
	if err != nil {
		return err
	}
	defer db.Close()
	want, err := wantedIndexes(ctx, db)
	if err != nil {
		if strings.Contains(err.Error(), "no such table") {
			return nil // a database with no collection yet
		}
		return err
	}
	have, err := indexDefinitions(ctx, db)
	if err != nil {
		return err
	}
	for name, w := range want {
		definition, ok := have[name]
		if ok && strings.Contains(definition, w.columns) {
			continue
		}
		if err := replaceIndex(ctx, db, name, ok, w.create); err != nil && !strings.Contains(err.Error(), "no such table") {
			return err
		}
	}
	for name := range have {
		if _, ok := want[name]; !ok && strings.HasPrefix(name, twinPrefix) {
			if _, err := db.ExecContext(ctx, fmt.Sprintf("DROP INDEX IF EXISTS %q", name)); err != nil {
				return err
			}
		}
	}
	return nil
}

// replaceIndex creates an index, first dropping the one of that name (in one transaction: no write sees neither).
func replaceIndex(ctx context.Context, db *sql.DB, name string, exists bool, create string) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback() //nolint:errcheck // after Commit, a no-op
	if exists {
		if _, err := tx.ExecContext(ctx, fmt.Sprintf("DROP INDEX IF EXISTS %q", name)); err != nil {
			return err
		}
	}
	if _, err := tx.ExecContext(ctx, create); err != nil {
		return err
	}
	return tx.Commit()
}

// wantedIndexes is every index of the embedding's the collections should have, by name.
func wantedIndexes(ctx context.Context, db *sql.DB) (map[string]wanted, error) {
	rows, err := db.QueryContext(ctx, `SELECT table_name, settings FROM _ferretdb_collections`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	want := map[string]wanted{}
	for rows.Next() {
		var table, settings string
		if err := rows.Scan(&table, &settings); err != nil {
			return nil, err
		}
		id := "_ferretdb_sjson->'$._id'"
		want[table+idIndexSuffix] = wanted{fmt.Sprintf(`CREATE INDEX %q ON %q (%s)`, table+idIndexSuffix, table, id), id}
		var d declared
		if err := json.Unmarshal([]byte(settings), &d); err != nil {
			return nil, fmt.Errorf("settings of %s: %w", table, err)
		}
		for _, index := range d.Indexes {
			columns, ok := twinColumns(index.Key)
			if index.Name == "_id_" || !ok {
				continue
			}
			name := table + "_" + index.Name // FerretDB's
			if index.Unique {
				name = twinPrefix + table + ":" + index.Name
			}
			want[name] = wanted{fmt.Sprintf(`CREATE INDEX %q ON %q (%s)`, name, table, columns), columns}
		}
	}
	return want, rows.Err()
}

// twinColumns writes an index key as the planner's expressions; false for a key on other than top-level fields.
func twinColumns(key []indexKey) (string, bool) {
	var columns []string
	for _, k := range key {
		if !plainField.MatchString(k.Field) {
			return "", false
		}
		column := fieldSQL(k.Field)
		if k.Descending {
			column += " DESC"
		}
		columns = append(columns, column)
	}
	return strings.Join(columns, ", "), len(columns) > 0
}

// indexDefinitions is the definition of every index in a database file, by name.
func indexDefinitions(ctx context.Context, db *sql.DB) (map[string]string, error) {
	rows, err := db.QueryContext(ctx, `SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	have := map[string]string{}
	for rows.Next() {
		var name, definition string
		if err := rows.Scan(&name, &definition); err != nil {
			return nil, err
		}
		have[name] = definition
	}
	return have, rows.Err()
}
