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
//     a twin `offerops:<table>:<index>` on the planner's expressions;
//   - for `_id` and every field of a declared index (listed in
//     `_offerops_watched`), two triggers per table that note in
//     `_offerops_arrays` when a written document holds an array or a
//     document there (one pass over its top-level fields), and a look at the
//     rows already stored when they are made: the planner reads a field as a
//     scalar only while it is watched and no such note exists.
// Twins and triggers of indexes dropped since are dropped. FerretDB lists
// indexes from its own metadata, so clients see exactly the ones they
// declared; it lists collections from it too, so our table stays unseen.

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
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
	arraysPrefix  = "offerops:arrays:"
)

// arraysTable holds (table, field) for each watched field a document of the table holds an array or a document
// in; watchedTable the fields the table's triggers watch.
const (
	arraysTable  = "_offerops_arrays"
	watchedTable = "_offerops_watched"
)

// indexTables keeps the indexes above on every database file under dir. Each sweep looks at the files written
// since the last, and indexes one only when its schema changed since it was last indexed: FerretDB makes and drops
// tables and indexes in DDL, which bumps SQLite's schema version, so most writes cost one PRAGMA (reading every
// index of each file written took a tenth of the engine's CPU under load). The connection lasts one look: one kept
// open would outlive a drop of its database, and closing it then would remove the write-ahead log and shared
// memory files by name, a database made again under that name's included.
func indexTables(ctx context.Context, dir string, logger *slog.Logger) {
	files := map[string]*indexedFile{}
	ticker := time.NewTicker(indexSweep)
	defer ticker.Stop()
	for {
		present, _ := filepath.Glob(filepath.Join(dir, "*.sqlite"))
		for _, file := range present {
			if err := files[file].sweep(ctx, file, files); err != nil {
				logger.Warn("offerops-ferretdb: indexing", "file", filepath.Base(file), "error", err)
			}
		}
		forgetGone(files, present)
		select {
		case <-ctx.Done():
			return
		case <-ticker.C:
		}
	}
}

// indexedFile is what the sweep last saw of a database file.
type indexedFile struct {
	info    os.FileInfo // the file: one dropped and made again is another (unless its inode number came back)
	changed time.Time   // the last change the sweep looked at
	schema  int64       // SQLite's schema version when last indexed with nothing left to do; -1: not so indexed
}

// sweep indexes `file` if it changed and its schema did since it was last indexed (f is nil for a file not yet
// seen); an error is tried again on the next sweep.
func (f *indexedFile) sweep(ctx context.Context, file string, files map[string]*indexedFile) error {
	info, err := os.Stat(file)
	if err != nil {
		return nil // dropped meanwhile
	}
	if f == nil || !os.SameFile(f.info, info) {
		f = &indexedFile{info: info, schema: -1}
		files[file] = f
	}
	changed := lastChange(file)
	if changed.IsZero() || changed.Equal(f.changed) {
		return nil
	}
	// mode=rw: a database dropped meanwhile is not created again.
	db, err := sql.Open("sqlite", "file:"+file+"?mode=rw&_pragma=busy_timeout(10000)")
	if err != nil {
		return err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	var version int64
	if err := db.QueryRowContext(ctx, "PRAGMA schema_version").Scan(&version); err != nil {
		return err
	}
	if version != f.schema {
		made, err := indexFile(ctx, db)
		if err != nil {
			return err
		}
		f.schema = version
		if made {
			f.schema = -1 // after DDL of its own, the next sweep looks again (and finds nothing left to do)
		}
	}
	f.changed = changed
	return nil
}

// forgetGone forgets the files no longer present.
func forgetGone(files map[string]*indexedFile, present []string) {
	keep := map[string]bool{}
	for _, file := range present {
		keep[file] = true
	}
	for file := range files {
		if !keep[file] {
			delete(files, file)
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

// wanted is an index or trigger the embedding keeps: the statements that make it and the text its definition
// must contain.
type wanted struct {
	kind    string // "index" or "trigger"
	create  []string
	columns string
}

// updateSuffix names a table's second trigger (the first, on inserts, has the wanted name).
const updateSuffix = ":update"

// indexFile brings one database file's indexes in line with its collections and their declared indexes; made
// says whether it changed any.
func indexFile(ctx context.Context, db *sql.DB) (made bool, err error) {
	want, err := wantedIndexes(ctx, db)
	if err != nil {
		if strings.Contains(err.Error(), "no such table") {
			return false, nil // a database with no collection yet
		}
		return false, err
	}
	have, err := indexDefinitions(ctx, db)
	if err != nil {
		return false, err
	}
	for name, w := range want {
		definition, ok := have[name]
		if ok && strings.Contains(definition, w.columns) {
			continue
		}
		made = true
		if err := replace(ctx, db, name, ok, w); err != nil && !strings.Contains(err.Error(), "no such table") {
			return made, err
		}
	}
	for name, definition := range have {
		if _, ok := want[strings.TrimSuffix(name, updateSuffix)]; ok || !strings.HasPrefix(name, twinPrefix) {
			continue
		}
		kind := "INDEX"
		if strings.HasPrefix(definition, "CREATE TRIGGER") {
			kind = "TRIGGER"
		}
		made = true
		if _, err := db.ExecContext(ctx, fmt.Sprintf("DROP %s IF EXISTS %q", kind, name)); err != nil {
			return made, err
		}
	}
	return made, nil
}

// replace makes an index or triggers, first dropping what has that name (in one transaction: no write sees
// neither).
func replace(ctx context.Context, db *sql.DB, name string, exists bool, w wanted) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback() //nolint:errcheck // after Commit, a no-op
	var drop []string
	if exists && w.kind == "index" {
		drop = []string{fmt.Sprintf("DROP INDEX IF EXISTS %q", name)}
	} else if exists {
		drop = []string{fmt.Sprintf("DROP TRIGGER IF EXISTS %q", name), fmt.Sprintf("DROP TRIGGER IF EXISTS %q", name+updateSuffix)}
	}
	for _, statement := range append(drop, w.create...) {
		if _, err := tx.ExecContext(ctx, statement); err != nil {
			return err
		}
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
		want[table+idIndexSuffix] = indexOf(table+idIndexSuffix, table, id)
		fields := map[string]bool{"_id": true}
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
			want[name] = indexOf(name, table, columns)
			for _, k := range index.Key {
				fields[k.Field] = true
			}
		}
		want[arraysPrefix+table] = arrayTriggers(table, fields)
	}
	return want, rows.Err()
}

// arrayTriggers watch fields of a table for arrays and documents: they list the fields, note which ones a
// stored document holds one in (looking at every row: made in one transaction, no write falls between), then
// note each later write that holds one.
func arrayTriggers(table string, fields map[string]bool) wanted {
	names := make([]string, 0, len(fields))
	for field := range fields {
		names = append(names, "'"+field+"'") // plain fields only: no quote inside
	}
	sort.Strings(names)
	watched := "key IN (" + strings.Join(names, ", ") + ")"
	noted := func(doc string) string {
		return fmt.Sprintf(`INSERT OR IGNORE INTO %q (tbl, field) SELECT DISTINCT '%s', key FROM json_each(%s) WHERE %s AND type IN ('array', 'object')`,
			arraysTable, table, doc, watched)
	}
	name := arraysPrefix + table
	statements := []string{
		fmt.Sprintf(`CREATE TABLE IF NOT EXISTS %q (tbl TEXT NOT NULL, field TEXT NOT NULL, PRIMARY KEY (tbl, field))`, arraysTable),
		fmt.Sprintf(`CREATE TABLE IF NOT EXISTS %q (tbl TEXT NOT NULL, field TEXT NOT NULL, PRIMARY KEY (tbl, field))`, watchedTable),
		fmt.Sprintf(`DELETE FROM %q WHERE tbl = '%s'`, arraysTable, table),
		fmt.Sprintf(`DELETE FROM %q WHERE tbl = '%s'`, watchedTable, table),
		fmt.Sprintf(`INSERT INTO %q (tbl, field) SELECT '%s', value FROM json_each('[%s]')`, watchedTable, table,
			strings.ReplaceAll(strings.Join(names, ","), "'", `"`)),
		strings.Replace(noted(fmt.Sprintf("%q._ferretdb_sjson", table)), " FROM json_each(", fmt.Sprintf(" FROM %q, json_each(", table), 1),
		fmt.Sprintf(`CREATE TRIGGER %q AFTER INSERT ON %q BEGIN %s; END`, name, table, noted("NEW._ferretdb_sjson")),
		fmt.Sprintf(`CREATE TRIGGER %q AFTER UPDATE ON %q BEGIN %s; END`, name+updateSuffix, table, noted("NEW._ferretdb_sjson")),
	}
	return wanted{kind: "trigger", create: statements, columns: watched}
}

// indexOf is an index on the given columns.
func indexOf(name, table, columns string) wanted {
	// The columns in their parentheses: an index on more columns does not pass for this one.
	return wanted{kind: "index", create: []string{fmt.Sprintf(`CREATE INDEX %q ON %q (%s)`, name, table, columns)}, columns: "(" + columns + ")"}
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

// indexDefinitions is the definition of every index and trigger in a database file, by name.
func indexDefinitions(ctx context.Context, db *sql.DB) (map[string]string, error) {
	rows, err := db.QueryContext(ctx, `SELECT name, sql FROM sqlite_master WHERE type IN ('index', 'trigger') AND sql IS NOT NULL`)
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
