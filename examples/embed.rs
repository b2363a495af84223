//! sokuc inside another program: read a puzzle, solve it, print the answer.
//! Run: `cargo run --release --example embed -- instances/icosoku-seed.toml`

fn main() -> Result<(), sokuc::Error> {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "instances/icosoku-seed.toml".into());
    let instance = sokuc::Instance::read(&path)?;
    let outcome = instance.solve(&sokuc::Options::new().backend(sokuc::Backend::Sat).unique(true))?;
    println!("{}: {:?}, unique: {:?}", path, outcome.status(), outcome.unique());
    print!("{}", outcome.text());
    std::process::exit(outcome.exit_code().into())
}
