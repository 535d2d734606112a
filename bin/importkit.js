#!/usr/bin/env node
import { processIo, run } from '../dist/cli/index.js';

process.exitCode = await run(process.argv.slice(2), processIo());
