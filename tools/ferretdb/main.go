// Command offerops-ferretdb embeds FerretDB (SQLite backend) so the offerops
// stack can speak the MongoDB wire protocol on machines without mongod.
//
// It listens on --listen (port 0 picks a free one), stores data under --dir,
// prints one line "mongodb://HOST:PORT/" on stdout once it accepts
// connections, and stops on SIGINT/SIGTERM or when its stdin closes.
//
// Clients reach FerretDB through a proxy of ours (serialize.go) that runs the
// write commands of a database one at a time, so that each is atomic.
//
// Three settings of the SQLite files keep it usable under load:
//   - transactions take SQLite's write lock when they begin (_txlock=immediate),
//     so concurrent writers wait for each other (busy timeout) instead of
//     failing with SQLITE_BUSY when a reader upgrades its lock;
//   - synchronous(normal) with FerretDB's write-ahead log: a commit survives
//     a crash of any process, and is flushed to disk at checkpoints, not one
//     fsync per write; an operating-system crash or power loss may lose the
//     last commits (MongoDB's default write concern, unjournaled, is alike);
//   - every collection table gets an index on the expression FerretDB filters
//     `_id` with (see indexIDs), so a look-up by `_id` is a B-tree search
//     rather than a scan of the table.
package main

import (
	"context"
	"database/sql"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/FerretDB/FerretDB/ferretdb"
	_ "modernc.org/sqlite"
)

func main() {
	listen := flag.String("listen", "127.0.0.1:0", "TCP address to listen on")
	dir := flag.String("dir", "", "directory for the SQLite files (required)")
	logLevel := flag.String("log-level", "warn", "debug, info, warn or error")
	flag.Parse()

	if *dir == "" {
		fmt.Fprintln(os.Stderr, "offerops-ferretdb: --dir is required")
		os.Exit(2)
	}
	abs, err := filepath.Abs(*dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "offerops-ferretdb:", err)
		os.Exit(2)
	}
	if err := os.MkdirAll(abs, 0o700); err != nil {
		fmt.Fprintln(os.Stderr, "offerops-ferretdb:", err)
		os.Exit(1)
	}

	var level slog.Level
	if err := level.UnmarshalText([]byte(*logLevel)); err != nil {
		fmt.Fprintln(os.Stderr, "offerops-ferretdb: bad --log-level:", err)
		os.Exit(2)
	}
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))

	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		fmt.Fprintln(os.Stderr, "offerops-ferretdb:", err)
		os.Exit(1)
	}
	// FerretDB itself listens on a Unix socket only the proxy uses (a short path: sockets have a length limit).
	sockDir, err := os.MkdirTemp("", "offerops-ferretdb-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "offerops-ferretdb:", err)
		os.Exit(1)
	}
	defer os.RemoveAll(sockDir)
	socket := filepath.Join(sockDir, "db.sock")

	f, err := ferretdb.New(&ferretdb.Config{
		Listener:  ferretdb.ListenerConfig{Unix: socket},
		Logger:    logger,
		Handler:   "sqlite",
		SQLiteURL: "file:" + abs + "/?_txlock=immediate&_pragma=synchronous(normal)",
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "offerops-ferretdb:", err)
		os.Exit(1)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	// The parent owns us: when it goes away (stdin reaches EOF) we stop too,
	// so a killed supervisor never leaves an orphan database behind.
	go func() {
		_, _ = io.Copy(io.Discard, os.Stdin)
		stop()
	}()

	done := make(chan struct{})
	go func() {
		_ = f.Run(ctx)
		close(done)
	}()
	go indexIDs(ctx, abs, logger)

	// MongoDBURI waits for FerretDB's listener, so the line means "ready".
	_ = f.MongoDBURI()
	go serve(ln, socket, logger)
	fmt.Printf("mongodb://%s/\n", ln.Addr())

	<-done
	ln.Close()
}

// idIndexSweep is how often indexIDs looks for new collection tables.
const idIndexSweep = 200 * time.Millisecond

// indexIDs adds to every collection table of the databases under dir an index
// on `_ferretdb_sjson->'$._id'`: the expression FerretDB's SQLite backend puts
// in the WHERE clause of a query by `_id`. Its own `_id` index is on a
// differently written expression that SQLite's planner cannot match, so
// without this every look-up by `_id` reads the whole table. FerretDB creates
// tables when a collection is first written, so this sweeps the files that
// changed since the last look. The extra index is invisible to MongoDB
// clients (FerretDB lists indexes from its own metadata) and goes with its
// table when the collection or database is dropped.
func indexIDs(ctx context.Context, dir string, logger *slog.Logger) {
	seen := map[string]time.Time{}
	ticker := time.NewTicker(idIndexSweep)
	defer ticker.Stop()
	for {
		files, _ := filepath.Glob(filepath.Join(dir, "*.sqlite"))
		for _, file := range files {
			changed := lastChange(file)
			if changed.IsZero() || changed.Equal(seen[file]) {
				continue
			}
			if err := indexFile(ctx, file); err != nil {
				logger.Warn("offerops-ferretdb: indexing _id", "file", filepath.Base(file), "error", err)
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

// indexFile creates the `_id` expression index on each collection table of one database file that lacks it.
func indexFile(ctx context.Context, file string) error {
	// mode=rw: a database dropped meanwhile is not created again.
	db, err := sql.Open("sqlite", "file:"+file+"?mode=rw&_pragma=busy_timeout(10000)")
	if err != nil {
		return err
	}
	defer db.Close()
	rows, err := db.QueryContext(ctx, `SELECT table_name FROM _ferretdb_collections c
		WHERE NOT EXISTS (SELECT 1 FROM sqlite_master m WHERE m.type = 'index' AND m.name = c.table_name || '_offerops_id')`)
	if err != nil {
		if strings.Contains(err.Error(), "no such table") {
			return nil // a database with no collection yet
		}
		return err
	}
	var tables []string
	for rows.Next() {
		var table string
		if err := rows.Scan(&table); err != nil {
			rows.Close()
			return err
		}
		tables = append(tables, table)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, table := range tables {
		q := fmt.Sprintf(`CREATE INDEX IF NOT EXISTS %q ON %q (_ferretdb_sjson->'$._id')`, table+"_offerops_id", table)
		if _, err := db.ExecContext(ctx, q); err != nil && !strings.Contains(err.Error(), "no such table") {
			return err
		}
	}
	return nil
}
