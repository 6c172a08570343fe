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
//     `_id` with, and every index a client declares a twin the planner's SQL
//     can use (twins.go).
//
// Reads FerretDB would answer by decoding the whole collection are answered
// from SQL instead where that is exact (pushdown.go, readpath.go).
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/FerretDB/FerretDB/ferretdb"
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
	go indexTables(ctx, abs, logger)

	// MongoDBURI waits for FerretDB's listener, so the line means "ready".
	_ = f.MongoDBURI()
	go serve(ln, socket, newReads(abs), logger)
	fmt.Printf("mongodb://%s/\n", ln.Addr())

	<-done
	ln.Close()
}
