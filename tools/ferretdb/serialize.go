package main

// FerretDB 1.24 applies every update as a read, a change in Go, then a write
// of the whole document, with nothing re-checked in between: two updates of
// one document at once can lose one ($inc loses counts, a conditional
// findAndModify can have two winners). The proxy below makes each write
// command atomic against the others: clients speak to it, it relays each
// message to FerretDB on a Unix socket, and it runs the write commands of one
// collection one at a time, holding that collection's lock from the request
// to its reply (a command on a whole database waits for all of them). Reads
// are relayed as they come.

import (
	"bufio"
	"encoding/binary"
	"errors"
	"io"
	"log/slog"
	"net"
	"sync"
)

const (
	opMsg = 2013
	// OP_MSG flag bits: a checksum ends the message; no reply follows (the sender's moreToCome).
	flagChecksum   = 1 << 0
	flagMoreToCome = 1 << 1
	// The wire protocol's bound on one message (maxMessageSizeBytes).
	maxMessage = 48 << 20
)

// collectionWrites are the commands that change one collection's data or shape (the collection is their value).
var collectionWrites = map[string]bool{
	"insert": true, "update": true, "delete": true, "findAndModify": true, "findandmodify": true,
	"create": true, "createIndexes": true, "drop": true, "dropIndexes": true,
}

// databaseWrites change a whole database: they wait for every write to it.
var databaseWrites = map[string]bool{"dropDatabase": true, "renameCollection": true}

// writeLocks holds a lock per database (shared by its collections' writes) and one per collection.
type writeLocks struct {
	mu          sync.Mutex
	databases   map[string]*sync.RWMutex
	collections map[string]*sync.Mutex
}

// lock takes what a command needs and returns its release; nil when it needs nothing.
func (w *writeLocks) lock(command, db, collection string) func() {
	switch {
	case databaseWrites[command]:
		d := w.database(db)
		d.Lock()
		return d.Unlock
	case collectionWrites[command]:
		d := w.database(db)
		w.mu.Lock()
		key := db + "." + collection
		c, ok := w.collections[key]
		if !ok {
			c = &sync.Mutex{}
			w.collections[key] = c
		}
		w.mu.Unlock()
		d.RLock()
		c.Lock()
		return func() { c.Unlock(); d.RUnlock() }
	}
	return nil
}

func (w *writeLocks) database(db string) *sync.RWMutex {
	w.mu.Lock()
	defer w.mu.Unlock()
	d, ok := w.databases[db]
	if !ok {
		d = &sync.RWMutex{}
		w.databases[db] = d
	}
	return d
}

// serve accepts clients on ln until it closes, relaying each to FerretDB at the Unix socket backend.
func serve(ln net.Listener, backend string, planned *reads, logger *slog.Logger) {
	locks := &writeLocks{databases: map[string]*sync.RWMutex{}, collections: map[string]*sync.Mutex{}}
	for {
		client, err := ln.Accept()
		if err != nil {
			return
		}
		go func() {
			defer client.Close()
			server, err := net.Dial("unix", backend)
			if err != nil {
				logger.Error("offerops-ferretdb: cannot reach FerretDB", "error", err)
				return
			}
			defer server.Close()
			if err := relay(client, server, locks, planned); err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, net.ErrClosed) {
				logger.Debug("offerops-ferretdb: connection ended", "error", err)
			}
		}()
	}
}

// relay passes one client's requests to FerretDB and FerretDB's replies back, one request at a time (the
// wire protocol's own rhythm on a connection), a write command under its database's lock; a read the
// planner can write is answered from SQL.
func relay(client, server net.Conn, locks *writeLocks, planned *reads) error {
	in := bufio.NewReader(client)
	back := bufio.NewReader(server)
	for {
		req, err := readMessage(in)
		if err != nil {
			return err
		}
		c := describe(req)
		reply, err := planned.answer(req, c, server, back)
		if err != nil {
			return err
		}
		if reply != nil {
			if _, err := client.Write(reply); err != nil {
				return err
			}
			continue
		}
		var release func()
		if c.flags&flagMoreToCome == 0 {
			release = locks.lock(c.command, c.db, c.collection)
		}
		err = exchange(req, c.flags, client, server, back)
		if release != nil {
			release()
		}
		if err != nil {
			return err
		}
	}
}

// exchange sends one request and relays its replies (none when the request says more is to come; several while
// a reply says so).
func exchange(req []byte, flags uint32, client, server net.Conn, back *bufio.Reader) error {
	if _, err := server.Write(req); err != nil {
		return err
	}
	if flags&flagMoreToCome != 0 {
		return nil
	}
	for {
		reply, err := readMessage(back)
		if err != nil {
			return err
		}
		if _, err := client.Write(reply); err != nil {
			return err
		}
		if describe(reply).flags&flagMoreToCome == 0 {
			return nil
		}
	}
}

// readMessage reads one whole wire-protocol message (its 16-byte header says its length).
func readMessage(r *bufio.Reader) ([]byte, error) {
	var size [4]byte
	if _, err := io.ReadFull(r, size[:]); err != nil {
		return nil, err
	}
	n := int(binary.LittleEndian.Uint32(size[:]))
	if n < 16 || n > maxMessage {
		return nil, errors.New("bad message length")
	}
	msg := make([]byte, n)
	copy(msg, size[:])
	_, err := io.ReadFull(r, msg[4:])
	return msg, err
}

// message is what the proxy reads of a message: an OP_MSG's flags, command, its collection and `$db`.
type message struct {
	flags                   uint32
	command, collection, db string
}

// describe reads an OP_MSG's flags and command; a zero message for anything else.
func describe(msg []byte) message {
	if len(msg) < 21 || binary.LittleEndian.Uint32(msg[12:16]) != opMsg {
		return message{}
	}
	m := message{flags: binary.LittleEndian.Uint32(msg[16:20])}
	end := len(msg)
	if m.flags&flagChecksum != 0 {
		end -= 4
	}
	for at := 20; at < end; {
		kind := msg[at]
		at++
		if at+4 > end {
			return m
		}
		size := int(binary.LittleEndian.Uint32(msg[at : at+4]))
		if size < 5 || at+size > end {
			return m
		}
		if kind == 0 {
			m.command, m.collection, m.db = commandOf(msg[at : at+size])
			return m
		}
		at += size // a document sequence (kind 1): its size counts itself
	}
	return m
}

// commandOf reads a command document's first key (the command), that key's string value (a collection) and `$db`.
func commandOf(doc []byte) (command, collection, db string) {
	for at := 4; at < len(doc)-1; {
		kind := doc[at]
		name, next, ok := cstring(doc, at+1)
		if !ok {
			return
		}
		size := valueSize(kind, doc, next)
		if size < 0 || next+size > len(doc) {
			return
		}
		text := ""
		if kind == 0x02 && size > 4 {
			text = string(doc[next+4 : next+size-1])
		}
		if command == "" {
			command, collection = name, text
		}
		if name == "$db" {
			db = text
		}
		at = next + size
	}
	return
}

func cstring(b []byte, at int) (string, int, bool) {
	for i := at; i < len(b); i++ {
		if b[i] == 0 {
			return string(b[at:i]), i + 1, true
		}
	}
	return "", 0, false
}

// valueSize is the length of a BSON value of type kind at b[at:], or -1 when it cannot be read.
func valueSize(kind byte, b []byte, at int) int {
	int32At := func(i int) int {
		if i+4 > len(b) {
			return -1
		}
		return int(int32(binary.LittleEndian.Uint32(b[i : i+4])))
	}
	switch kind {
	case 0x01, 0x09, 0x11, 0x12: // double, date, timestamp, int64
		return 8
	case 0x02, 0x0D, 0x0E: // string, code, symbol: length, then bytes with a trailing zero
		if n := int32At(at); n >= 1 {
			return 4 + n
		}
		return -1
	case 0x03, 0x04, 0x0F: // document, array, code with scope: the length counts itself
		return int32At(at)
	case 0x05: // binary: length, subtype, bytes
		if n := int32At(at); n >= 0 {
			return 5 + n
		}
		return -1
	case 0x06, 0x0A, 0x7F, 0xFF: // undefined, null, max key, min key
		return 0
	case 0x07: // object id
		return 12
	case 0x08: // bool
		return 1
	case 0x0B: // regex: two C strings
		_, next, ok := cstring(b, at)
		if !ok {
			return -1
		}
		if _, end, ok := cstring(b, next); ok {
			return end - at
		}
		return -1
	case 0x0C: // db pointer: string, then an object id
		if n := int32At(at); n >= 1 {
			return 4 + n + 12
		}
		return -1
	case 0x10: // int32
		return 4
	case 0x13: // decimal128
		return 16
	}
	return -1
}
