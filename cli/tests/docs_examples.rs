//! Every ```json block of docs/scenarios.md is a complete scenario or lesson: `logtime run` must
//! replay it, `logtime check` must pass it (every variant of a lesson) and `logtime explain` must
//! narrate it (a lesson's answer sheet).

use std::process::Command;

#[test]
fn every_documented_example_runs() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/scenarios.md"))
        .unwrap();
    let mut blocks = Vec::new();
    let mut rest = doc.as_str();
    while let Some(i) = rest.find("```json\n") {
        let body = &rest[i + 8..];
        let end = body.find("```").expect("closed block");
        blocks.push(body[..end].to_string());
        rest = &body[end + 3..];
    }
    assert!(
        blocks.len() >= 14,
        "one example per step kind and per lesson feature, found {}",
        blocks.len()
    );
    let lessons = blocks.iter().filter(|b| b.contains("\"lesson\"")).count();
    assert!(
        lessons >= 5,
        "one example per lesson feature, found {lessons}"
    );
    let dir = std::env::temp_dir().join(format!("logtime-docs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (i, b) in blocks.iter().enumerate() {
        let p = dir.join(format!("example{i}.json"));
        std::fs::write(&p, b).unwrap();
        for cmd in ["run", "check", "explain"] {
            let out = Command::new(env!("CARGO_BIN_EXE_logtime"))
                .arg(cmd)
                .arg(&p)
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "example {i} ({cmd}) failed: {}\n{b}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
    }
}
