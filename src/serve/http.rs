//! The HTTP/1.1 the server speaks, over std's sockets: one request per connection, answered
//! with `Connection: close`.
//!
//! Every connection has a deadline (`Config::io_timeout`): the whole request (its head and
//! its body) must arrive within it, and each write of the answer must make progress within
//! it. A client that connects and sends nothing, sends half a request, or stops reading its
//! answer holds its thread (one of `Config::max_open`) only until then.

use std::io::{ErrorKind, Read, Write};
use std::net::{Shutdown, TcpStream};
use std::time::{Duration, Instant};

use super::reply::{Reply, error};

/// The longest request head (request line and headers) read.
const MAX_HEAD: usize = 16 * 1024;

/// A request as read: its method, target (path and query), headers and body.
pub(crate) struct Request {
    pub(crate) method: String,
    pub(crate) target: String,
    headers: Vec<(String, String)>,
    pub(crate) body: Vec<u8>,
}

impl Request {
    /// The first header named `name` (case-insensitive), trimmed.
    pub(crate) fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The path, without the query.
    pub(crate) fn path(&self) -> &str {
        self.target.split('?').next().unwrap_or("")
    }
}

/// Why no request was read.
pub(crate) enum Unread {
    /// The client closed the connection, or sent nothing before the deadline: there is no
    /// one to answer.
    Gone,
    /// An answer to give before closing (a request too large, malformed, or cut short by
    /// the deadline); the rest of what the client sends is not read.
    Refused(Reply),
}

/// Reads one request from `stream` by `deadline`, its body at most `max_body` bytes.
pub(crate) fn read_request(stream: &mut TcpStream, max_body: usize, deadline: Instant) -> Result<Request, Unread> {
    let mut buf = Vec::with_capacity(1024);
    let head_end = loop {
        if let Some(end) = find_head_end(&buf) {
            break end;
        }
        if buf.len() > MAX_HEAD {
            return Err(Unread::Refused(error(
                431,
                format!("the request's head is larger than the limit of {MAX_HEAD} bytes"),
            )));
        }
        match read_some(stream, &mut buf, deadline) {
            Ok(0) if buf.is_empty() => return Err(Unread::Gone),
            Ok(0) => return Err(Unread::Refused(error(400, "the request ended before its head did"))),
            Ok(_) => {}
            Err(e) if is_timeout(&e) && !buf.is_empty() => return Err(Unread::Refused(timed_out())),
            Err(_) => return Err(Unread::Gone),
        }
    };
    let head = String::from_utf8_lossy(&buf[..head_end]).into_owned();
    let mut lines = head.lines();
    let request_line = lines.next().unwrap_or("");
    let mut words = request_line.split(' ');
    let (Some(method), Some(target), Some(version), None) = (words.next(), words.next(), words.next(), words.next())
    else {
        return Err(Unread::Refused(error(
            400,
            "the request line is not `METHOD TARGET HTTP/1.1`",
        )));
    };
    if !version.starts_with("HTTP/1.") || method.is_empty() || !target.starts_with('/') {
        return Err(Unread::Refused(error(
            400,
            "the request line is not `METHOD TARGET HTTP/1.1`",
        )));
    }
    let mut headers = Vec::new();
    for line in lines {
        let Some((name, value)) = line.split_once(':') else {
            return Err(Unread::Refused(error(400, "a header line has no `:`")));
        };
        headers.push((name.trim().to_string(), value.trim().to_string()));
    }
    let mut request = Request {
        method: method.to_string(),
        target: target.to_string(),
        headers,
        body: Vec::new(),
    };
    if request.header("Transfer-Encoding").is_some() {
        return Err(Unread::Refused(error(
            411,
            "the API takes bodies with a Content-Length, not in chunks",
        )));
    }
    let length = match request.header("Content-Length") {
        None => 0,
        Some(n) => n
            .parse::<usize>()
            .map_err(|_| Unread::Refused(error(400, format!("Content-Length: {n:?} is not a number of bytes"))))?,
    };
    if length > max_body {
        return Err(Unread::Refused(error(
            413,
            format!("the request is larger than the limit of {max_body} bytes"),
        )));
    }
    if length > 0
        && request
            .header("Expect")
            .is_some_and(|e| e.eq_ignore_ascii_case("100-continue"))
    {
        let _ = stream.write_all(b"HTTP/1.1 100 Continue\r\n\r\n");
    }
    // What came after the head, then the rest of the body.
    let mut body = buf.split_off(head_end + head_terminator(&buf, head_end));
    body.truncate(length);
    while body.len() < length {
        match read_some(stream, &mut body, deadline) {
            Ok(0) => return Err(Unread::Refused(error(400, "the request ended before its body did"))),
            Ok(_) => body.truncate(length),
            Err(e) if is_timeout(&e) => return Err(Unread::Refused(timed_out())),
            Err(_) => return Err(Unread::Gone),
        }
    }
    request.body = body;
    Ok(request)
}

/// Where the head ends: the index of the blank line's first byte (`\r\n\r\n` or `\n\n`).
fn find_head_end(buf: &[u8]) -> Option<usize> {
    (0..buf.len()).find(|&i| buf[i..].starts_with(b"\r\n\r\n") || buf[i..].starts_with(b"\n\n"))
}

/// The length of the blank line at `end`.
fn head_terminator(buf: &[u8], end: usize) -> usize {
    if buf[end..].starts_with(b"\r\n\r\n") { 4 } else { 2 }
}

/// One read into `buf`, waiting at most until `deadline`.
fn read_some(stream: &mut TcpStream, buf: &mut Vec<u8>, deadline: Instant) -> std::io::Result<usize> {
    let left = deadline.saturating_duration_since(Instant::now());
    if left.is_zero() {
        return Err(ErrorKind::TimedOut.into());
    }
    // A zero timeout is refused by the socket: at least a millisecond.
    stream.set_read_timeout(Some(left.max(Duration::from_millis(1))))?;
    let mut chunk = [0u8; 16 * 1024];
    loop {
        match stream.read(&mut chunk) {
            Ok(n) => {
                buf.extend_from_slice(&chunk[..n]);
                return Ok(n);
            }
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
}

fn is_timeout(e: &std::io::Error) -> bool {
    matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut)
}

fn timed_out() -> Reply {
    error(
        408,
        "the request did not arrive in time: the server closes a connection that sends too slowly",
    )
}

/// The reason phrase of a status.
fn reason(status: u16) -> &'static str {
    match status {
        100 => "Continue",
        200 => "OK",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        411 => "Length Required",
        413 => "Content Too Large",
        415 => "Unsupported Media Type",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        507 => "Insufficient Storage",
        _ => "Status",
    }
}

/// Writes `reply` with `headers` (the body left out for a `HEAD` request), each write
/// within `timeout`, and closes the sending side. An error means the client is gone or
/// stopped reading: nothing to do about it.
pub(crate) fn write_reply(
    stream: &mut TcpStream,
    reply: &Reply,
    headers: &[(&str, &str)],
    head_only: bool,
    timeout: Duration,
) -> std::io::Result<()> {
    stream.set_write_timeout(Some(timeout.max(Duration::from_millis(1))))?;
    let mut head = format!(
        "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\nConnection: close\r\n",
        reply.status,
        reason(reply.status),
        reply.content_type,
        reply.body.len()
    );
    for (k, v) in headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes())?;
    if !head_only {
        stream.write_all(&reply.body)?;
    }
    stream.flush()?;
    stream.shutdown(Shutdown::Write)
}

/// After a refusal that left part of the request unread: reads (and drops) what the client
/// still sends, until it closes or `deadline`, at most `limit` bytes, so that closing the
/// socket does not reset the connection before the client has read the answer.
pub(crate) fn drain(stream: &mut TcpStream, limit: usize, deadline: Instant) {
    let mut seen = 0usize;
    let mut sink = Vec::new();
    while seen <= limit {
        sink.clear();
        match read_some(stream, &mut sink, deadline) {
            Ok(0) | Err(_) => return,
            Ok(n) => seen += n,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heads_end_at_a_blank_line() {
        assert_eq!(find_head_end(b"GET / HTTP/1.1\r\nHost: x\r\n\r\nbody"), Some(23));
        assert_eq!(head_terminator(b"GET / HTTP/1.1\r\nHost: x\r\n\r\nbody", 23), 4);
        assert_eq!(find_head_end(b"GET / HTTP/1.1\nHost: x\n\nbody"), Some(22));
        assert_eq!(find_head_end(b"GET / HTTP/1.1\r\nHost: x\r\n"), None);
    }
}
